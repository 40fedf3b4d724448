//go:build js && wasm

// Command kafkalive-wasm is the live cluster built for a browser tab
// (GOOS=js GOARCH=wasm): the static site's Web Worker (worker.js) loads it,
// and it answers the page's messages (package web/tab). kafkalive static
// builds it into a site; it does nothing outside a Worker.
package main

import "github.com/kafkalive/kafkalive/web/tab"

func main() { tab.Serve() }
