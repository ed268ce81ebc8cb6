//go:build !linux

package rootfs

import (
	"errors"
	"os"

	"github.com/tetratelabs/wazero/sys"
)

// Elsewhere than Linux every path goes through os.Root, and no file is a
// bare descriptor.
func beneathFD(*os.Root) int { return -1 }

var errLinuxOnly = errors.New("rootfs: openat2 is Linux only")

func openBeneath(int, string, int) (int, error) { return -1, errLinuxOnly }
func closeFD(int)                               {}
func readFD(int, []byte) (int, error)           { return 0, errLinuxOnly }
func preadFD(int, []byte, int64) (int, error)   { return 0, errLinuxOnly }
func fstat(int) (sys.Stat_t, error)             { return sys.Stat_t{}, errLinuxOnly }
