// Package e2e drives the served page in a real browser (Debian's Chromium,
// headless, through chromedp): the page shows three brokers, cutting a
// broker's power changes the partition view, dragging the timeline back
// shows the earlier state, kafka-topics --describe in the terminal prints
// the topics, and a guided scenario plays to its end.
//
// The tests skip with a message when no Chromium is installed
// (.ci/install-browser installs it). Each keeps a screenshot in
// $KAFKALIVE_SCREENSHOTS (default: the system's temporary directory,
// kafkalive-e2e/), whose path it prints.
package e2e
