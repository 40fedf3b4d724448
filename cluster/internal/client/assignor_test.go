package client

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kafkalive/kafkalive/group"
)

func TestCheckAssignment(t *testing.T) {
	members := []group.MemberSubscription{{MemberID: "a"}, {MemberID: "b"}}
	topics := []group.TopicMetadata{{Topic: "t", Partitions: 2}}
	tp := func(p int32) group.TopicPartition { return group.TopicPartition{Topic: "t", Partition: p} }
	for _, tt := range []struct {
		name string
		got  group.Assignment
		want string
	}{
		{"valid", group.Assignment{"a": {tp(0)}, "b": {tp(1)}}, ""},
		{"a member may get nothing", group.Assignment{"a": {tp(0), tp(1)}, "b": nil}, ""},
		{"member left out", group.Assignment{"a": {tp(0), tp(1)}}, "cluster: invalid assignment: member b has no entry"},
		{"unknown member", group.Assignment{"a": nil, "b": nil, "c": {tp(0)}}, "cluster: invalid assignment: member c is not in the group"},
		{"no such partition", group.Assignment{"a": {tp(2)}, "b": nil}, "cluster: invalid assignment: t-2 does not exist"},
		{"no such topic", group.Assignment{"a": {{Topic: "u"}}, "b": nil}, "cluster: invalid assignment: u-0 does not exist"},
		{"given twice, named in member order", group.Assignment{"b": {tp(1)}, "a": {tp(1)}}, "cluster: invalid assignment: t-1 given to a and b"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for range 20 { // map order changes from run to run: the answer may not
				err := CheckAssignment(tt.got, members, topics)
				got := ""
				if err != nil {
					got = err.Error()
					if !errors.Is(err, errAssignment) {
						t.Errorf("%v is not errAssignment", err)
					}
				}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Fatalf("(-want +got)\n%s", diff)
				}
			}
		})
	}
}
