package host

import (
	"context"

	"github.com/tetratelabs/wazero/experimental"
	"golang.org/x/sys/unix"
)

// withReservedMemory makes each instance's linear memory one reservation of
// its cap, committed by the kernel page by page as the module touches it, so
// growing memory never copies it. wazero's default grows a Go slice, copying
// the whole memory as the module's heap grows.
func withReservedMemory(ctx context.Context) context.Context {
	return experimental.WithMemoryAllocator(ctx, experimental.MemoryAllocatorFunc(reserve))
}

type reservation struct{ buf []byte }

func reserve(_, max uint64) experimental.LinearMemory {
	buf, err := unix.Mmap(-1, 0, int(max), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_NORESERVE)
	if err != nil {
		return nil
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
