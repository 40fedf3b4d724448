package replicakit

import (
	"fmt"
	"github.com/kafkalive/kafkalive/internal/kit"
	"slices"
	"strings"

	"github.com/kafkalive/kafkalive/replica"
	"pgregory.net/rapid"
)

// record is one record of a simulated log: the epoch it was written in and
// a unique id, so that two logs can be compared record by record.
type record struct {
	epoch int32
	id    int
}

// records is a log from offset 0.
type records []record

func (rs records) at(o int64) string {
	if o < 0 || o >= int64(len(rs)) {
		return "nothing"
	}
	return fmt.Sprintf("record #%d of epoch %d", rs[o].id, rs[o].epoch)
}

// String prints a log as "0:#1·e0 1:#2·e0".
func (rs records) String() string {
	if len(rs) == 0 {
		return "[]"
	}
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = fmt.Sprintf("%d:#%d·e%d", i, r.id, r.epoch)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// twoLogs are a follower's and a leader's records.
type twoLogs struct{ follower, leader records }

// commonPrefix is the length of the longest common prefix.
func (t *twoLogs) commonPrefix() int64 {
	n := 0
	for n < len(t.follower) && n < len(t.leader) && t.follower[n] == t.leader[n] {
		n++
	}
	return int64(n)
}

func (t *twoLogs) firstDifference() int64 { return t.commonPrefix() }

// followerPrefixMatches reports whether the follower's first leo records are
// the leader's.
func (t *twoLogs) followerPrefixMatches(leo int64) bool { return leo <= t.commonPrefix() }

// replicaLog is one simulated replica: records and epoch cache.
type replicaLog struct {
	recs   records
	epochs []replica.EpochEntry
}

func (r *replicaLog) leo() int64 { return int64(len(r.recs)) }

// assign is LeaderEpochFileCache.assign: entries with an epoch or start at or
// past the new one go first.
func (r *replicaLog) assign(epoch int32, start int64) {
	if n := len(r.epochs); n > 0 && r.epochs[n-1].Epoch == epoch {
		return
	}
	r.epochs = slices.DeleteFunc(r.epochs, func(e replica.EpochEntry) bool { return e.Epoch >= epoch || e.StartOffset >= start })
	r.epochs = append(r.epochs, replica.EpochEntry{Epoch: epoch, StartOffset: start})
}

// world is a history of three replicas of one partition under 2.1+ rules,
// unclean elections allowed, so that logs diverge in every way Kafka allows.
type world struct {
	reps   [3]replicaLog
	leader int
	epoch  int32
	nextID int
	steps  []string
}

func (w *world) step(format string, args ...any) {
	w.steps = append(w.steps, fmt.Sprintf(format, args...))
}

// elect makes r the leader of a new epoch; 2.1+ caches the epoch at once at
// its log end (KAFKA-7415).
func (w *world) elect(r int) {
	w.epoch++
	w.leader = r
	w.reps[r].assign(w.epoch, w.reps[r].leo())
	w.step("broker %d becomes leader in epoch %d with %s", r, w.epoch, w.reps[r].recs)
}

func (w *world) append(n int) {
	l := &w.reps[w.leader]
	for range n {
		w.nextID++
		l.recs = append(l.recs, record{epoch: w.epoch, id: w.nextID})
	}
	w.step("leader %d appends %d record(s): %s", w.leader, n, l.recs)
}

func (w *world) leaderLog() leaderLog {
	l := &w.reps[w.leader]
	return leaderLog{epochs: slices.Clone(l.epochs), leo: l.leo()}
}

// replicate makes f truncate the right way, then fetch up to n records.
func (w *world) replicate(f int, n int64) {
	r := &w.reps[f]
	after, _ := kafkaTruncate(Follower{Epochs: r.epochs, LogEndOffset: r.leo()}, w.leaderLog())
	r.recs, r.epochs = r.recs[:after.LogEndOffset], after.Epochs
	l := &w.reps[w.leader]
	for o := r.leo(); o < min(l.leo(), after.LogEndOffset+n); o++ {
		rec := l.recs[o]
		r.recs = append(r.recs, rec)
		if rec.epoch > latestEpoch(r.epochs) {
			r.assign(rec.epoch, o)
		}
	}
	w.step("broker %d truncates to %d and fetches from leader %d: %s", f, after.LogEndOffset, w.leader, r.recs)
}

// drawWorld plays a random history of three replicas.
func drawWorld(t *rapid.T) *world {
	w := &world{leader: -1, epoch: -1}
	w.elect(rapid.IntRange(0, 2).Draw(t, "firstLeader"))
	events := rapid.IntRange(1, 16).Draw(t, "events")
	for range events {
		switch rapid.SampledFrom([]string{"elect", "elect", "append", "append", "append", "replicate"}).Draw(t, "event") {
		case "elect":
			w.elect((w.leader + rapid.IntRange(1, 2).Draw(t, "newLeaderAfter")) % 3)
			if n := rapid.IntRange(0, 3).Draw(t, "recordsInNewEpoch"); n > 0 {
				w.append(n)
			}
		case "append":
			w.append(rapid.IntRange(1, 3).Draw(t, "records"))
		case "replicate":
			f := rapid.IntRange(0, 2).Draw(t, "fetchingFollower")
			if f != w.leader {
				w.replicate(f, rapid.Int64Range(0, 4).Draw(t, "fetchedRecords"))
			}
		}
	}
	return w
}

// followers are the replicas of w that are not its leader.
func (w *world) followers() []int {
	var out []int
	for r := range w.reps {
		if r != w.leader {
			out = append(out, r)
		}
	}
	return out
}

func truncationProperties(tr truncationSubject, replay string) func(*rapid.T) {
	return func(t *rapid.T) {
		w := drawWorld(t)
		for _, fi := range w.followers() {
			followerCase(t, tr, w, fi, replay)
		}
		// A follower whose log has no epochs (written under a message format
		// before v2, or before it cached any): it asks nothing, and cuts at
		// its high watermark.
		fs := w.followers()
		r := w.reps[fs[0]]
		bare := Follower{LogEndOffset: r.leo(), HighWatermark: rapid.Int64Range(0, r.leo()).Draw(t, "bareFollowerHighWatermark")}
		if kit.Draw(t, rapid.Bool(), "followerWithoutEpochs") {
			if fail := truncateCase(tr, bare, w.leaderLog(), nil); fail != nil {
				fail.Details = append(fail.Details, "history (shrunk by rapid):\n  "+strings.Join(w.steps, "\n  "), "then broker "+fmt.Sprint(fs[0])+"'s epoch cache is lost")
				fail.Replay = replay
				kit.Fatal(t, fail)
			}
		}
		// The follower one truncation returned must not change with the next.
		first := Follower{Epochs: slices.Clone(r.epochs), LogEndOffset: r.leo(), HighWatermark: r.leo() / 2}
		if fail := truncateAliasCase(tr, truncateInput{first, w.leaderLog()}, otherTruncation); fail != nil {
			fail.Details = append(fail.Details, "history (shrunk by rapid):\n  "+strings.Join(w.steps, "\n  "))
			fail.Replay = replay
			kit.Fatal(t, fail)
		}
		if fail := pointCase(tr, drawRound(t)); fail != nil {
			fail.Details = append(fail.Details, "a single round, outside any history")
			fail.Replay = replay
			kit.Fatal(t, fail)
		}
	}
}

// followerCase makes broker fi truncate against the leader of w, with both
// of tr's functions.
func followerCase(t *rapid.T, tr truncationSubject, w *world, fi int, replay string) {
	r := w.reps[fi]
	f := Follower{Epochs: slices.Clone(r.epochs), LogEndOffset: r.leo()}
	f.HighWatermark = rapid.Int64Range(0, f.LogEndOffset).Draw(t, "followerHighWatermark")
	l := w.leaderLog()
	fail := pointCase(tr, pointInput{own: f.Epochs, leo: f.LogEndOffset, hw: f.HighWatermark, answer: l.answer(latestEpoch(f.Epochs))})
	if fail == nil {
		fail = truncateCase(tr, f, l, &twoLogs{follower: r.recs, leader: w.reps[w.leader].recs})
	}
	if fail != nil {
		steps := append(slices.Clone(w.steps), fmt.Sprintf("broker %d (HW %d) becomes a follower of broker %d in epoch %d and truncates", fi, f.HighWatermark, w.leader, w.epoch))
		fail.Details = append(fail.Details, "history (shrunk by rapid):\n  "+strings.Join(steps, "\n  "))
		fail.Replay = replay
		kit.Fatal(t, fail)
	}
}

// drawRound draws one round's question outside any history: a valid cache,
// a log end and high watermark, and any answer a leader can give, undefined
// ones included (a leader whose log has no epochs, or an older Kafka's).
func drawRound(t *rapid.T) pointInput {
	var in pointInput
	start := int64(0)
	for e := range rapid.IntRange(0, 4).Draw(t, "ownEpochs") {
		if rapid.Bool().Draw(t, "ownHasEpoch") {
			in.own = append(in.own, replica.EpochEntry{Epoch: int32(e), StartOffset: start})
			start += rapid.Int64Range(1, 3).Draw(t, "recordsInEpoch")
		}
	}
	in.leo = start
	in.hw = rapid.Int64Range(0, in.leo).Draw(t, "hw")
	switch rapid.IntRange(0, 2).Draw(t, "answerKind") {
	case 0:
		in.answer = undefinedAnswer
	case 1:
		in.answer = answer(replica.NoEpoch, rapid.Int64Range(0, in.leo+2).Draw(t, "answerEndOffset"))
	default:
		in.answer = answer(rapid.Int32Range(0, 4).Draw(t, "answerEpoch"), rapid.Int64Range(0, in.leo+2).Draw(t, "answerEndOffset"))
	}
	return in
}

// otherTruncation is a truncation of another partition, with epochs no drawn
// history has, made after a history's to see whether its result changes.
var otherTruncation = truncateInput{Follower{epochs(90, 0, 95, 3), 5, 2}, leaderLog{epochs(90, 0, 96, 4), 9}}
