package group

// TickEveryGroup makes every Tick of c look at every group, as before
// Ticks looked only at the groups touched or due: the reference the
// tests hold the timers to.
func TickEveryGroup(c *Coordinator) { c.tickEveryGroup = true }
