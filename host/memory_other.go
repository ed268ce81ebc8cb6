//go:build !linux

package host

import "github.com/tetratelabs/wazero/experimental"

// memoryOf gives an instance's linear memory a slice that grows by
// copying, as wazero's own allocator does, up to limit: the index
// instance's cap is larger than the others', and a runtime has one limit.
func memoryOf(limit uint64) experimental.MemoryAllocator {
	return experimental.MemoryAllocatorFunc(func(_, max uint64) experimental.LinearMemory {
		return &sliceMemory{max: min(limit, max)}
	})
}
