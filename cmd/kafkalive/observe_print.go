package main

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/kafkalive/kafkalive/observe"
)

// progress keeps one line on a terminal up to date (rewritten in place);
// elsewhere (a file, a pipe) it writes nothing, so that logs hold only the
// events.
type progress struct {
	w     io.Writer
	tty   bool
	shown bool
}

func newProgress(w io.Writer) *progress { return &progress{w: w, tty: rewritable(w)} }

// show replaces the line with line.
func (p *progress) show(line string) {
	if !p.tty {
		return
	}
	fmt.Fprintf(p.w, "\r\033[K%s", line)
	p.shown = true
}

// clear removes the line, so that other output starts at a line's start.
func (p *progress) clear() {
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
		p.shown = false
	}
}

// done ends the line where it is.
func (p *progress) done() {
	if p.shown {
		fmt.Fprintln(p.w)
		p.shown = false
	}
}

// rewritable reports whether w is a terminal, where a line can be
// rewritten in place.
func rewritable(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progressLine sums a poll up in one line.
func progressLine(s *observe.Sample) string {
	sum := observe.Summarize(s)
	line := fmt.Sprintf("poll %d %s: %d/%d broker(s) up, %d partition(s)", s.Seq, s.At.Format("15:04:05"), sum.BrokersUp, len(s.Brokers), len(s.Partitions))
	if sum.UnderReplicated > 0 || sum.Offline > 0 {
		line += fmt.Sprintf(" (%d under-replicated, %d offline)", sum.UnderReplicated, sum.Offline)
	}
	if len(s.Groups) > 0 {
		line += fmt.Sprintf(", %d group(s), lag %s", len(s.Groups), offset(sum.Lag))
	}
	line += fmt.Sprintf(", %d request(s) in %s", s.Requests, s.Took.Round(100_000))
	if n := len(s.Unanswered); n > 0 {
		line += fmt.Sprintf(", %d unanswered", n)
	}
	return line
}

// offset prints an offset, "-" when not observed.
func offset(n int64) string {
	if n == observe.NotObserved {
		return "-"
	}
	return strconv.FormatInt(n, 10)
}

// replicaList prints ids as Kafka's tools print a replica list: 1,2,3.
func replicaList(ids []int32) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.Itoa(int(id))
	}
	return strings.Join(s, ",")
}

// printSample prints what one poll saw: the cluster, brokers, partitions,
// groups, what went unanswered and what cannot be observed.
func printSample(w io.Writer, s *observe.Sample) {
	fmt.Fprintf(w, "Cluster %s, controller %d", orDash(s.ClusterID), s.ControllerID)
	if q := s.Quorum; q != nil {
		fmt.Fprintf(w, "; metadata quorum leader %d, epoch %d, high watermark %d", q.LeaderID, q.LeaderEpoch, q.HighWatermark)
	} else {
		fmt.Fprint(w, "; metadata quorum not observed")
	}
	fmt.Fprintf(w, " (poll %d at %s, %d requests in %s)\n\n", s.Seq, s.At.Format("15:04:05"), s.Requests, s.Took.Round(100_000))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "BROKER\tSTATE\tLISTENER\tRACK\tLOG DIR\tUSABLE BYTES")
	for _, b := range s.Brokers {
		fmt.Fprintf(tw, "%d\t%s\t%s:%d\t%s\t%s\t%s\n", b.ID, b.State, b.Host, b.Port, orDash(b.Rack), orDash(b.LogDir), offset(b.UsableBytes))
	}
	tw.Flush()
	if len(s.Partitions) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(tw, "TOPIC\tPARTITION\tLEADER\tEPOCH\tREPLICAS\tISR\tELR\tLOG START\tHIGH WATERMARK\tLAST STABLE\tLOG END (BROKER:LEO)\tPRODUCERS")
		for _, p := range s.Partitions {
			var leos []string
			for _, l := range p.Logs {
				leos = append(leos, fmt.Sprintf("%d:%s", l.Broker, offset(l.LogEndOffset)))
			}
			elr, producers := "-", "-"
			if s.ELRListed {
				elr = cmp.Or(replicaList(p.ELR), "none")
			}
			if p.ProducersSeq != 0 {
				producers = fmt.Sprint(len(p.Producers))
			}
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", p.Topic, p.Partition, p.Leader, p.LeaderEpoch, replicaList(p.Replicas),
				replicaList(p.ISR), elr, offset(p.LogStartOffset), offset(p.HighWatermark), offset(p.LastStableOffset), strings.Join(leos, " "), producers)
		}
		tw.Flush()
	}
	for _, g := range s.Groups {
		fmt.Fprintf(w, "\nGroup %s: %s, coordinator %d, %d member(s)\n", g.Name, orDash(g.State), g.Coordinator, len(g.Members))
		if len(g.Offsets) == 0 {
			continue
		}
		fmt.Fprintln(tw, "TOPIC\tPARTITION\tCOMMITTED\tHIGH WATERMARK\tLAG\tMEMBER")
		for _, o := range g.Offsets {
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\n", o.Topic, o.Partition, offset(o.Committed), offset(o.LogEndOffset), offset(o.Lag), orDash(o.Member))
		}
		tw.Flush()
	}
	if len(s.Unanswered) > 0 {
		fmt.Fprintln(w, "\nNot answered in this poll (shown as -):")
		for _, u := range s.Unanswered {
			fmt.Fprintf(w, "  %s\n", u)
		}
	}
	fmt.Fprintln(w, "\nNot observable from outside the brokers:")
	for _, u := range observe.Unobservable {
		fmt.Fprintf(w, "  %s\n", u)
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
