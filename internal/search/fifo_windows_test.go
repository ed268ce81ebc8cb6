//go:build windows

package search_test

import "errors"

// mkfifo: Windows has no FIFOs in a directory tree.
func mkfifo(string) error { return errors.ErrUnsupported }
