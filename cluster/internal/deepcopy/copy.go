package deepcopy

import (
	"reflect"
	"unsafe"
)

// Copy returns a deep copy of *src as a new value of the same type. Values
// of the shallow types are copied by assignment, sharing what they point
// to: types whose contents are never changed once made.
func Copy[T any](src *T, shallow ...reflect.Type) *T {
	c := copier{memo: map[ptrKey]reflect.Value{}, flat: map[reflect.Type]bool{}, sharers: map[reflect.Type]reflect.Method{}}
	for _, t := range shallow {
		c.flat[t] = true
	}
	dst := new(T)
	c.memo[ptrKey{reflect.ValueOf(src).Pointer(), reflect.TypeOf(src)}] = reflect.ValueOf(dst)
	c.into(reflect.ValueOf(dst).Elem(), reflect.ValueOf(src).Elem())
	return dst
}

type ptrKey struct {
	addr uintptr
	typ  reflect.Type
}

// copier holds the pointers already copied and, per type, whether it
// holds no pointers at all (and can be copied by assignment).
type copier struct {
	memo    map[ptrKey]reflect.Value
	flat    map[reflect.Type]bool
	sharers map[reflect.Type]reflect.Method
}

// into copies src into dst; dst is settable, src readable.
func (c *copier) into(dst, src reflect.Value) {
	if c.isFlat(src.Type()) {
		dst.Set(src)
		return
	}
	switch src.Kind() {
	case reflect.Pointer:
		c.pointer(dst, src)
	case reflect.Struct:
		if m, ok := c.copyShared(src.Type()); ok && src.CanAddr() {
			dst.Set(m.Func.Call([]reflect.Value{src.Addr()})[0])
			return
		}
		src = addressable(src)
		c.fields(dst, src)
	case reflect.Array:
		for i := range src.Len() {
			c.into(dst.Index(i), open(src.Index(i)))
		}
	case reflect.Slice:
		c.slice(dst, src)
	case reflect.Map:
		c.mapping(dst, src)
	case reflect.Interface:
		if src.IsNil() {
			return
		}
		inner := src.Elem()
		v := reflect.New(inner.Type()).Elem()
		c.into(v, inner)
		dst.Set(v)
	default: // strings, funcs, chans: shared
		dst.Set(src)
	}
}

// fields copies a struct field by field. A pointer to one of its fields
// (a clock that is a *int64 to the world's time) reached after the struct
// points to the copy's field.
func (c *copier) fields(dst, src reflect.Value) {
	if dst.CanAddr() {
		for i := range src.NumField() {
			f := src.Field(i)
			c.memo[ptrKey{f.UnsafeAddr(), reflect.PointerTo(f.Type())}] = open(dst.Field(i)).Addr()
		}
	}
	for i := range src.NumField() {
		c.into(open(dst.Field(i)), open(src.Field(i)))
	}
}

// copyShared returns the method CopyShared of *T, if T has one of type
// func() T: such a value is copied by calling it on the original (vfs's
// file pages, which the copy and the original then share, each copying a
// page before it first writes it).
func (c *copier) copyShared(t reflect.Type) (reflect.Method, bool) {
	if m, ok := c.sharers[t]; ok {
		return m, m.Func.IsValid()
	}
	m, ok := reflect.PointerTo(t).MethodByName("CopyShared")
	if ok && (m.Type.NumIn() != 1 || m.Type.NumOut() != 1 || m.Type.Out(0) != t) {
		m, ok = reflect.Method{}, false
	}
	c.sharers[t] = m
	return m, ok
}

func (c *copier) pointer(dst, src reflect.Value) {
	if src.IsNil() {
		return
	}
	key := ptrKey{src.Pointer(), src.Type()}
	if v, ok := c.memo[key]; ok {
		dst.Set(v)
		return
	}
	v := reflect.New(src.Type().Elem())
	c.memo[key] = v
	c.into(v.Elem(), open(src.Elem()))
	dst.Set(v)
}

func (c *copier) slice(dst, src reflect.Value) {
	if src.IsNil() {
		return
	}
	v := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
	if c.isFlat(src.Type().Elem()) {
		reflect.Copy(v, src)
	} else {
		for i := range src.Len() {
			c.into(v.Index(i), open(src.Index(i)))
		}
	}
	dst.Set(v)
}

func (c *copier) mapping(dst, src reflect.Value) {
	if src.IsNil() {
		return
	}
	t := src.Type()
	v := reflect.MakeMapWithSize(t, src.Len())
	it := src.MapRange()
	for it.Next() {
		k := reflect.New(t.Key()).Elem()
		c.into(k, it.Key())
		e := reflect.New(t.Elem()).Elem()
		c.into(e, it.Value())
		v.SetMapIndex(k, e)
	}
	dst.Set(v)
}

// isFlat reports whether values of t hold no pointers, slices, maps,
// interfaces or funcs (strings are immutable), so that assignment copies
// them wholly.
func (c *copier) isFlat(t reflect.Type) bool {
	if f, ok := c.flat[t]; ok {
		return f
	}
	c.flat[t] = false // a recursive type holds a pointer
	f := false
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.String:
		f = true
	case reflect.Array:
		f = c.isFlat(t.Elem())
	case reflect.Struct:
		f = true
		for i := range t.NumField() {
			f = f && c.isFlat(t.Field(i).Type)
		}
	}
	c.flat[t] = f
	return f
}

// addressable returns v, or an addressable copy of it.
func addressable(v reflect.Value) reflect.Value {
	if v.CanAddr() {
		return v
	}
	a := reflect.New(v.Type()).Elem()
	a.Set(v)
	return a
}

// open returns v without the read-only flag of an unexported field, so
// that it can be read into interfaces and set.
func open(v reflect.Value) reflect.Value {
	if v.CanSet() || !v.CanAddr() {
		return v
	}
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}
