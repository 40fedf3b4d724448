package web

import (
	"fmt"
	"io"
	"strconv"

	"github.com/kafkalive/kafkalive/cluster"
)

// cutClient is the terminal's "cut client N [BROKERS]": it cuts the links
// between external Kafka client N (the page's Kafka panel numbers them)
// and the brokers listed, or all of them. The client's connections then
// hang, as over a cut network, until "heal".
func (t *Terminal) cutClient(args []string, at *int64, out io.Writer) error {
	if len(args) < 1 || len(args) > 2 {
		return ErrUsage
	}
	n, err := strconv.ParseInt(args[0], 10, 32)
	if err != nil || n < 1 {
		return fmt.Errorf("%w: client %q is not a client number (see the Kafka panel)", ErrUsage, args[0])
	}
	var brokers []int32
	if len(args) == 2 {
		if brokers, err = nodeList(args[1]); err != nil {
			return err
		}
	} else {
		for id := int32(1); int(id) <= t.live.Brokers(); id++ {
			brokers = append(brokers, id)
		}
	}
	return t.act(at, out, cluster.Action{Kind: cluster.ActPartition, A: brokers, B: []int32{cluster.ExternalNode(int32(n))}})
}
