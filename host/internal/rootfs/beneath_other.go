//go:build !linux

package rootfs

import (
	"errors"
	"os"
)

// Elsewhere than Linux every path goes through os.Root.
func beneathFD(*os.Root) int { return -1 }

func openBeneath(int, string, int) (*os.File, error) {
	return nil, errors.New("rootfs: openat2 is Linux only")
}

func closeFD(int) {}
