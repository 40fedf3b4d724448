package vfs

// Both implementations satisfy the interfaces.
var (
	_ FS   = (*MemFS)(nil)
	_ FS   = osFS{}
	_ File = (*memFile)(nil)
	_ File = osFile{}
)
