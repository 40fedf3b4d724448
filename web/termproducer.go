package web

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/internal/kafkatools"
)

// setProducer changes a producer's rate, acks or keys; what is not given
// stays as it is.
func (t *Terminal) setProducer(args []string, at *int64, out io.Writer) error {
	fl, pos := kafkatools.Flags(args)
	if len(pos) != 1 || len(fl) == 0 {
		return ErrUsage
	}
	return t.live.Do(at, func(w *cluster.World) error {
		a, err := producerEdit(w, pos[0], fl)
		if err != nil {
			return err
		}
		from := nextSeq(w)
		if err := w.Do(a); err != nil {
			return err
		}
		printEvents(out, eventsSince(w, from), 20)
		return nil
	})
}

// producerEdit builds the set-producer action from the producer's current
// configuration and the flags rate, acks and keys ("none": no keys).
func producerEdit(w *cluster.World, name string, fl map[string]string) (cluster.Action, error) {
	var p *cluster.Producer
	for _, q := range w.Producers() {
		if q.Name() == name {
			p = q
		}
	}
	if p == nil {
		return cluster.Action{}, fmt.Errorf("no producer %q", name)
	}
	c := p.Config()
	rate := p.RatePerSec()
	if s, ok := fl["rate"]; ok {
		r, err := strconv.ParseFloat(s, 64)
		if err != nil || r < 0 || r > 1000 {
			return cluster.Action{}, fmt.Errorf("%w: --rate from 0 to 1000 records a second (1.5 allowed)", ErrUsage)
		}
		rate = r
	}
	acks := c.Acks
	if s, ok := fl["acks"]; ok {
		acks = s
	}
	keys := c.Keys
	if s, ok := fl["keys"]; ok {
		keys = nil
		if s != "none" && s != "" {
			keys = strings.Split(s, ",")
		}
	}
	return cluster.Action{Kind: cluster.ActSetProducer, Name: name, Producer: cluster.ProducerConfig{Rate: rate, Acks: acks, Keys: keys}}, nil
}
