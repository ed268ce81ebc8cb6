//go:build !linux

package host

import "context"

// withReservedMemory keeps wazero's default allocator off Linux.
func withReservedMemory(ctx context.Context) context.Context { return ctx }
