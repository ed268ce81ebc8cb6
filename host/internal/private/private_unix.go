//go:build unix

package private

import (
	"io/fs"
	"os"
	"syscall"
)

// checksMode: a directory's mode says who else may open it.
const checksMode = true

func owned(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Uid == uint32(os.Getuid())
}
