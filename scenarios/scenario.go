package scenarios

import "github.com/kafkalive/kafkalive/cluster"

// Scenario is one guided scenario: a cluster, its steps and branches.
type Scenario struct {
	// Name is how "kafkalive play NAME" finds it, e.g. "kip101-part3".
	Name string
	// Group is where the web page lists it: one of [Groups] ("basics",
	// "durability", "kip101", "consumers", "keys"); [GroupTitles] names it.
	Group string
	// Title is the heading, in the list and when played; Summary the line
	// under it in the list: what the scenario sets up, never its outcome.
	Title, Summary string
	// Lesson is the decisive outcome the scenario teaches, told at its end.
	Lesson string
	// File is the data file it was read from, e.g. "07-kip101-part3.txt".
	File string
	// Source names where Kafka does what the scenario shows: classes,
	// methods and KIPs at a version, e.g. "KIP-101 (Kafka 0.11):
	// LeaderEpochFileCache, OffsetsForLeaderEpoch".
	Source string
	// Intro is the narration before the first step.
	Intro []string
	// Config is the cluster to start (the seed can be overridden by a Run).
	Config cluster.Config
	// Topic and Partition name the partition the facts talk about.
	Topic     string
	Partition int32
	// PageCacheMarks says the expected records carry the * of page-cache-only
	// records, so they are compared with their marks. When false (the
	// scenario leaves them out), the marks are ignored.
	PageCacheMarks bool
	// View is how much of the state a step shows: [ViewLogs] (default) or
	// [ViewGroups].
	View string
	// Events are the kinds of event a step shows (nil: all but actions and
	// messages), e.g. group and consume for a consumer-group scenario.
	Events []cluster.EventKind
	// Steps are the main line, in order.
	Steps []Step
	// Branches replay the world to one of the main steps under another
	// configuration and go on from there.
	Branches []Branch
}

// Branch is an alternative future: the actions of the main line up to and
// including step After, replayed on a world whose Config differs.
type Branch struct {
	// Name is the branch label, e.g. "A" or "contrast-a".
	Name string
	// After is the ID of the main step after which the branch starts.
	After string
	// Overrides are the cluster settings that differ (same syntax as the
	// cluster line), applied to the scenario's Config.
	Overrides string
	// Config is the scenario's Config with Overrides applied.
	Config cluster.Config
	// Intro is the narration at the fork.
	Intro []string
	Steps []Step
}

// Step is one step: what happens, what the learner is asked, and what the
// state is expected to be afterwards.
type Step struct {
	// ID is the step's label: "3", "6B", "A1".
	ID string
	// Title is a short line and Narration the paragraphs told before the
	// step is played: the situation, in words that do not give its
	// question's answer away.
	Title     string
	Narration []string
	// Outcome is the title of what happened and Reveal the paragraphs
	// told after the step is played, with its question's why.
	Outcome string
	Reveal  []string
	// Actions are applied to the world in order.
	Actions []cluster.Action
	// Question is nil when the step asks nothing.
	Question *Question
	// Expect are the facts checked after the step.
	Expect []Fact
	// Wait, when set, holds the step until an external Kafka client (one
	// the user runs against the page's listeners) has written to the
	// world; nil for a step that does not wait.
	Wait *Wait
	// Line is where the step starts in its file.
	Line int
}

// Wait is what a step waits for before it is played: Records records in
// Topic (the sum of its partitions' log end offsets on their leaders),
// written by a Kafka client outside the simulation. While a step waits,
// the world runs with the wall clock, so that the client's requests are
// answered (the page's Advance). When no external client has spoken to
// the world (kafkalive play, the tests), StandIn is played instead: the
// actions of a simulated producer doing what the user was asked to do.
type Wait struct {
	Topic   string
	Records int64
	StandIn []cluster.Action
}

// Question is a multiple-choice question asked before a step is played.
type Question struct {
	Text    string
	Choices []string
	// Answer is the 1-based index of the right choice.
	Answer int
	// Why explains the answer; it is shown after the step.
	Why string
}
