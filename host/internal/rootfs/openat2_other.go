//go:build unix && !linux

package rootfs

import (
	"github.com/tetratelabs/wazero/sys"
	"golang.org/x/sys/unix"
)

// Elsewhere than Linux (macOS, the BSDs) every path is opened a component
// at a time: openat with O_NOFOLLOW, relative to the directory above. Linux
// takes the same path when ROOTBOUND_NO_OPENAT2 is set or its kernel is
// older than 5.6, and the hostile suite and conformance run on it there.
func hasOpenat2(int) bool { return false }

func openat2(int, string, int) (int, error) { return -1, unix.ENOSYS }

func lstatOpenat2(*Dir, string) (sys.Stat_t, error) { return sys.Stat_t{}, unix.ENOSYS }

// RealPath is name's real path: here a descriptor does not say its own.
func (d *Dir) RealPath(name string) string { return realPath(name) }

// RealPath is name's real path: here a descriptor does not say its own.
func RealPath(_ int, name string) string { return realPath(name) }
