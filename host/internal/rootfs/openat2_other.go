//go:build !linux

package rootfs

import "golang.org/x/sys/unix"

// Elsewhere than Linux every path is opened a component at a time.
func hasOpenat2(int) bool { return false }

func openat2(int, string, int) (int, error) { return -1, unix.ENOSYS }
