package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/kafkalive/kafkalive/cluster"
	"github.com/kafkalive/kafkalive/web"
)

// domSize opens the default world with a topic "big" of n partitions,
// read by a group of two, and more one-partition topics than the page
// sums up, and returns how many elements the page holds and how many rows
// its partition table shows once the page shows them all (paging through
// the table on the way).
func domSize(t *testing.T, n int) (elements, rows int) {
	ctx, live := page(t, 1)
	term := web.NewTerminal(live)
	lines := []string{fmt.Sprintf("kafka-topics --create --topic big --partitions %d --replication-factor 3", n),
		"add-consumer wide-1 --group wide --topics big", "add-consumer wide-2 --group wide --topics big"}
	for i := range web.MaxTopicsShown + 5 {
		lines = append(lines, fmt.Sprintf("kafka-topics --create --topic small-%02d --partitions 1 --replication-factor 3", i))
	}
	for _, line := range lines {
		var out strings.Builder
		require.NoError(t, term.Exec(line, nil, &out), "%s: %s", line, out.String())
	}
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelector("#parts-topics").textContent.includes("big")`,
		chromedp.WithPollingTimeout(20*time.Second)))
	require.NoError(t, err, "the table never summed up topic big")
	for range 3 {
		require.NoError(t, chromedp.Do(ctx, clickNow(`#pt-next`), chromedp.Sleep(300*time.Millisecond)))
	}
	time.Sleep(3 * time.Second) // the group commits, events come in
	elements = eval[int](t, ctx, `document.getElementsByTagName("*").length`)
	rows = eval[int](t, ctx, `document.querySelectorAll("#parts tbody tr").length`)
	t.Logf("%d partitions: %d elements, %d rows of the partition table", n, elements, rows)
	return elements, rows
}

// TestDOMStaysBoundedWithManyPartitions: the page holds about as many
// elements with a topic of as many partitions as the world holds as with
// one of a hundred: a page of the table, at most MaxTopicsShown topics summed
// up, a group's most lagging offsets.
func TestDOMStaysBoundedWithManyPartitions(t *testing.T) {
	extra := web.MaxTopicsShown + 5
	few, _ := domSize(t, 100)
	many, rows := domSize(t, min(2000, cluster.MaxPartitions-10-extra))
	if rows > web.PageRows {
		t.Errorf("the table shows %d rows; a page is %d", rows, web.PageRows)
	}
	if many > few+few/10 {
		t.Errorf("the page holds %d elements with many partitions and %d with a hundred: the DOM grows with the cluster", many, few)
	}
}
