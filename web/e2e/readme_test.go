package e2e

import (
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// TestREADMEScreenshot takes the README's picture of the page when
// KAFKALIVE_README_SCREENSHOT names the file to write (docs/screenshot.png):
// the default world after about a minute, broker 3 killed, one record's
// journey open.
func TestREADMEScreenshot(t *testing.T) {
	path := os.Getenv("KAFKALIVE_README_SCREENSHOT")
	if path == "" {
		t.Skip("set KAFKALIVE_README_SCREENSHOT=docs/screenshot.png to take the README's screenshot")
	}
	ctx, _ := page(t, 10)
	// a laptop's screen, the key folded: the partition and the journey show
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1440, 900), chromedp.Click(`#legend summary`)))
	time.Sleep(5 * time.Second)
	require.NoError(t, chromedp.Do(ctx,
		clickNow(`button[data-cmd="kill 3"]`),
		chromedp.WaitVisible(`.broker[data-broker="3"][data-state="crashed"]`),
	))
	time.Sleep(1500 * time.Millisecond)
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Click(`button[data-cmd="pause"], #pause`),
		chromedp.Sleep(300*time.Millisecond),
		chromedp.Click(`.logrow[data-role="leader"] .rec:nth-last-child(6)`),
		chromedp.WaitVisible(`#journey`),
		clickNow(`.tabs button[data-tab="term"]`),
		chromedp.Click(`#term-input`),
		chromedp.SendKeys(`#term-input`, "kafka-topics --describe --topic orders\n"),
		chromedp.Sleep(300*time.Millisecond),
		chromedp.SendKeys(`#term-input`, "kafka-consumer-groups --describe --group billing\n"),
		chromedp.Sleep(500*time.Millisecond),
	))
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, png, 0o644))
	t.Logf("screenshot: %s", path)
}
