package todo

// TODO is the value an unwritten exercise function panics with.
var TODO = notStarted{}

type notStarted struct{}

// NotStarted is how the suites recognise TODO (kafkalogkit looks for this method).
func (notStarted) NotStarted() bool { return true }

func (notStarted) Error() string {
	return "not written yet: read the doc comment of this function and the note it links"
}
