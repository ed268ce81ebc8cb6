package host

import (
	"github.com/tetratelabs/wazero/experimental"
	"golang.org/x/sys/unix"
)

// memoryOf makes an instance's linear memory one reservation of its cap
// (limit), committed by the kernel page by page as the module touches it,
// so growing memory never copies it. wazero's default grows a Go slice,
// copying the whole memory as the module's heap grows. Where the
// reservation is refused (a ulimit -v, strict overcommit), memory is a
// growing slice again. Either way the module can grow no further than
// limit, whatever the runtime's own limit (the index instance's is larger
// than the others', and a runtime has one).
func memoryOf(limit uint64) experimental.MemoryAllocator {
	return experimental.MemoryAllocatorFunc(func(_, max uint64) experimental.LinearMemory {
		limit := min(limit, max)
		buf, err := unix.Mmap(-1, 0, int(limit), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_NORESERVE)
		if err != nil {
			return &sliceMemory{max: limit}
		}
		return &reservation{buf: buf}
	})
}

type reservation struct{ buf []byte }

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
