//go:build windows

package walk

import (
	"os"

	"golang.org/x/sys/windows"
)

// readDir lists the directory fd (a handle) through a duplicate of it;
// nothing else lists fd, and Go's listing starts over on a new file. A
// reparse point is listed as a link (Go reports the name-surrogate ones
// so; opening any other is refused as one).
func (*Walker) readDir(fd int, _ string) ([]Entry, error) {
	proc := windows.CurrentProcess()
	var own windows.Handle
	if err := windows.DuplicateHandle(proc, windows.Handle(fd), proc, &own, 0, false, windows.DUPLICATE_SAME_ACCESS); err != nil {
		return nil, err
	}
	return list(os.NewFile(uintptr(own), "."))
}
