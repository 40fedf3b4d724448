package clonetest

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// Text renders v whole, for comparing states: pointers are followed (a
// pointer met again on the same path is "<cycle>"), unexported fields
// included, map entries sorted by their rendered keys, functions as whether
// they are nil. Two values render alike if and only if they hold the same
// data, wherever it lives.
func Text(v any) string {
	var b strings.Builder
	text(&b, reflect.ValueOf(v), map[seenKey]bool{})
	return b.String()
}

func text(b *strings.Builder, v reflect.Value, onPath map[seenKey]bool) {
	if !v.IsValid() {
		b.WriteString("<nil>")
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		key := seenKey{v.Pointer(), v.Type()}
		if onPath[key] {
			b.WriteString("<cycle>")
			return
		}
		onPath[key] = true
		b.WriteString("&")
		text(b, v.Elem(), onPath)
		delete(onPath, key)
	case reflect.Interface:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		fmt.Fprintf(b, "%s(", v.Elem().Type())
		text(b, v.Elem(), onPath)
		b.WriteString(")")
	case reflect.Struct:
		b.WriteString("{")
		for i := range v.NumField() {
			if i > 0 {
				b.WriteString(" ")
			}
			fmt.Fprintf(b, "%s:", v.Type().Field(i).Name)
			text(b, v.Field(i), onPath)
		}
		b.WriteString("}")
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			b.WriteString("nil")
			return
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			fmt.Fprintf(b, "%x", bytesOf(v))
			return
		}
		b.WriteString("[")
		for i := range v.Len() {
			if i > 0 {
				b.WriteString(" ")
			}
			text(b, v.Index(i), onPath)
		}
		b.WriteString("]")
	case reflect.Map:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		var entries []string
		it := v.MapRange()
		for it.Next() {
			var e strings.Builder
			text(&e, it.Key(), onPath)
			e.WriteString(":")
			text(&e, it.Value(), onPath)
			entries = append(entries, e.String())
		}
		slices.Sort(entries)
		fmt.Fprintf(b, "map[%s]", strings.Join(entries, " "))
	case reflect.Func:
		fmt.Fprintf(b, "func(nil=%v)", v.IsNil())
	case reflect.Bool:
		fmt.Fprint(b, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		fmt.Fprint(b, v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		fmt.Fprint(b, v.Uint())
	case reflect.Float32, reflect.Float64:
		fmt.Fprint(b, v.Float())
	case reflect.String:
		fmt.Fprintf(b, "%q", v.String())
	default:
		fmt.Fprintf(b, "<%s>", v.Kind())
	}
}

// bytesOf returns the bytes of a []byte or [n]byte value, read through
// unexported fields too.
func bytesOf(v reflect.Value) []byte {
	out := make([]byte, v.Len())
	for i := range out {
		out[i] = byte(v.Index(i).Uint())
	}
	return out
}
