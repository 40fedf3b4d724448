package tab

import (
	"context"
	"runtime/debug"
	"syscall/js"
)

// Serve runs the tab in the Web Worker that loaded it, until the Worker
// ends: it hands worker.js its receiver (kafkaliveStarted), which passes
// it the page's messages, and posts its own with postMessage.
func Serve() {
	debug.SetMemoryLimit(MemoryLimit)
	self := js.Global()
	post := func(o Out) {
		self.Call("postMessage", map[string]any{"op": o.Op, "id": o.ID, "status": o.Status, "type": o.Type, "body": o.Body})
	}
	t, err := New(post)
	if err != nil {
		post(Out{Op: "fatal", Body: err.Error()})
		return
	}
	if f := self.Get("kafkaliveMemory"); f.Type() == js.TypeFunction {
		t.Memory = func() uint64 { return uint64(f.Invoke().Float()) }
	}
	receive := js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) == 1 && args[0].Type() == js.TypeObject {
			t.Receive(inOf(args[0]))
		}
		return nil
	})
	self.Call("kafkaliveStarted", receive)
	t.Run(context.Background())
}

// inOf reads a message of the page.
func inOf(v js.Value) In {
	str := func(k string) string {
		if f := v.Get(k); f.Type() == js.TypeString {
			return f.String()
		}
		return ""
	}
	m := In{Op: str("op"), Method: str("method"), Path: str("path"), Body: str("body")}
	if id := v.Get("id"); id.Type() == js.TypeNumber {
		m.ID = id.Int()
	}
	return m
}
