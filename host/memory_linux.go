package host

import (
	"context"

	"github.com/tetratelabs/wazero/experimental"
	"golang.org/x/sys/unix"
)

// withReservedMemory makes each instance's linear memory one reservation of
// its cap, committed by the kernel page by page as the module touches it, so
// growing memory never copies it. wazero's default grows a Go slice, copying
// the whole memory as the module's heap grows. Where the reservation is
// refused (a ulimit -v, strict overcommit), memory is a growing slice again.
func withReservedMemory(ctx context.Context) context.Context {
	return experimental.WithMemoryAllocator(ctx, experimental.MemoryAllocatorFunc(reserve))
}

type reservation struct{ buf []byte }

func reserve(capacity, max uint64) experimental.LinearMemory {
	buf, err := unix.Mmap(-1, 0, int(max), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_NORESERVE)
	if err != nil {
		return &sliceMemory{max: max}
	}
	return &reservation{buf: buf}
}

func (r *reservation) Reallocate(size uint64) []byte {
	if size > uint64(len(r.buf)) {
		return nil
	}
	return r.buf[:size:size]
}

func (r *reservation) Free() {
	if r.buf != nil {
		_ = unix.Munmap(r.buf)
		r.buf = nil
	}
}

// sliceMemory is linear memory in a Go slice that grows by copying, as
// wazero's own allocator does: the fallback when a reservation is refused.
type sliceMemory struct {
	buf []byte
	max uint64
}

func (m *sliceMemory) Reallocate(size uint64) []byte {
	if size > m.max {
		return nil
	}
	if size > uint64(cap(m.buf)) {
		grown := make([]byte, size, min(max(size, 2*uint64(cap(m.buf))), m.max))
		copy(grown, m.buf)
		m.buf = grown
	}
	m.buf = m.buf[:size]
	return m.buf
}

func (m *sliceMemory) Free() { m.buf = nil }
