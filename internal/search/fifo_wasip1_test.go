//go:build wasip1

package search_test

import "errors"

// wasip1 has no mkfifo: the FIFO case runs in the native build.
func mkfifo(string) error { return errors.New("no mkfifo on wasip1") }
