package cluster

// Wipe removes a path under broker id's log.dirs (see [ActWipe]); the
// broker must be down.
func (w *World) Wipe(id int32, name string) error {
	return w.Do(Action{Kind: ActWipe, Broker: id, Name: name})
}
