package topicconfig

import (
	"fmt"
	"strings"
)

// OpType is an IncrementalAlterConfigs operation (Kafka's
// AlterConfigOp.OpType).
type OpType int8

// The operations.
const (
	OpSet      OpType = 0
	OpDelete   OpType = 1
	OpAppend   OpType = 2
	OpSubtract OpType = 3
)

// String is the operation's name as Kafka prints it.
func (o OpType) String() string {
	switch o {
	case OpSet:
		return "SET"
	case OpDelete:
		return "DELETE"
	case OpAppend:
		return "APPEND"
	case OpSubtract:
		return "SUBTRACT"
	}
	return fmt.Sprintf("ConfigOpType(%d)", int8(o))
}

// Op is one change to a topic's configs: set Name to Value, delete it
// (back to the broker's value), or append values to or subtract them
// from a list (cleanup.policy).
type Op struct {
	Name  string
	Op    OpType
	Value *string
}

// String prints the change: name=value for a SET, "delete name",
// name+=value for an APPEND, name-=value for a SUBTRACT (a null value as
// null).
func (o Op) String() string {
	v := "null"
	if o.Value != nil {
		v = *o.Value
	}
	switch o.Op {
	case OpSet:
		return o.Name + "=" + v
	case OpDelete:
		return "delete " + o.Name
	case OpAppend:
		return o.Name + "+=" + v
	case OpSubtract:
		return o.Name + "-=" + v
	}
	return fmt.Sprintf("%s %s=%s", o.Op, o.Name, v)
}

// OpsString prints changes, separated by commas.
func OpsString(ops []Op) string {
	parts := make([]string, len(ops))
	for i, o := range ops {
		parts[i] = o.String()
	}
	return strings.Join(parts, ", ")
}
