package host

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rootbound/rootbound/internal/wire"
	"github.com/rootbound/rootbound/protocol"
)

// The index cache (WithIndexCache): a file a root, in a directory only
// this user may open, that holds the module's saved index of the root
// (IndexArgs.Save) behind a header of the host's:
//
//	cacheMagic, then the root's key (32 bytes), then the module's bytes
//
// The key is a hash of the module's own bytes, the root's name and its
// host directory: a file written by another build of the module, or for
// another root (copied, or renamed over this one's), is ignored. What the
// header lets through the module still checks whole (its checksums) and
// file by file (a look at each file), so a file cut short or changed
// costs a build, never an answer.
const cacheMagic = "rootbound index cache\n"

// cacheSuffix ends the name of every index file of the cache.
const cacheSuffix = ".rbix"

// moduleSum is a hash of the module's bytes, made once when first asked.
var moduleSum = sync.OnceValue(func() [32]byte { return sha256.Sum256(moduleWasm) })

// cacheFile is where root i's index is kept (named by the root alone, so
// a new build of the module writes over its files), and the key its
// header holds.
func (r *Runner) cacheFile(i int) (string, [32]byte) {
	dirs := r.hostDirs[i]
	root := sha256.Sum256([]byte(r.cfg.roots[i].Name + "\x00" + dirs[len(dirs)-1]))
	sum := moduleSum()
	key := sha256.Sum256(append(sum[:], root[:]...))
	return filepath.Join(r.indexCache, hex.EncodeToString(root[:16])+cacheSuffix), key
}

// exchange sends one request line to inst and waits for its answer's
// Done, handing every other line to each.
func exchange(inst *instance, req *protocol.Request, each func(*protocol.Line) error) (*protocol.Done, error) {
	line, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	if err := inst.send(line); err != nil {
		return nil, err
	}
	var items wire.ItemReader
	for {
		raw, more := inst.out.wait()
		if !more {
			return nil, errors.New("the module exited")
		}
		l, err := decodeLine(&items, raw)
		if err != nil {
			return nil, err
		}
		if l.Done != nil {
			return l.Done, nil
		}
		if err := each(&l); err != nil {
			return nil, err
		}
	}
}

// loadCache hands inst the index cache's files of the roots that have
// one, and reports whether it handed any; an error means inst is not to
// be used.
func (r *Runner) loadCache(inst *instance) (bool, error) {
	if r.indexCache == "" {
		return false, nil
	}
	loaded := false
	buf := make([]byte, protocol.MaxChunkBytes)
	for i, root := range r.cfg.roots {
		path, key := r.cacheFile(i)
		f, size, err := r.openCacheFile(path)
		if err != nil {
			continue // none, or refused (NewRunner warned of what was there)
		}
		head := make([]byte, len(cacheMagic)+len(key))
		if _, err := io.ReadFull(f, head); err != nil || !bytes.Equal(head, append([]byte(cacheMagic), key[:]...)) {
			f.Close()
			continue // another root's, another module's, or not a cache file
		}
		used(f)
		body := io.LimitReader(f, size-int64(len(head)))
		for {
			n, rerr := io.ReadFull(body, buf)
			if n > 0 {
				done, err := exchange(inst, &protocol.Request{V: protocol.Version, ID: "load", Load: &protocol.Chunk{Root: root.Name, Bytes: buf[:n]}},
					func(*protocol.Line) error { return nil })
				if err != nil || done.Status != protocol.StatusComplete {
					f.Close()
					return false, errors.Join(err, errors.New("load refused"))
				}
				loaded = true
			}
			if rerr != nil {
				break // the end, or a read that failed: the module's checksum says which
			}
		}
		f.Close()
	}
	return loaded, nil
}

// maxCacheFile is the most a root's cache file may hold: its header and
// an index as large as one may be (indexCap). A larger file could not be
// the module's, and would be read whole before its checksum said so.
func (r *Runner) maxCacheFile() int64 {
	return int64(len(cacheMagic)+sha256.Size) + r.cfg.indexCap()
}

// openCacheFile opens a cache file to read, without following a link and
// without blocking (a FIFO in its place would hold the build for ever),
// and returns it with its size, or an error saying why it is not to be
// read: not a regular file, or larger than maxCacheFile. What it returns
// is decided on the file opened, not its name.
func (r *Runner) openCacheFile(path string) (*os.File, int64, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|cacheOpenFlags, 0)
	if err != nil {
		return nil, 0, err
	}
	fi, err := f.Stat()
	switch {
	case err != nil:
	case !fi.Mode().IsRegular():
		err = fmt.Errorf("%s is not a regular file (%v)", path, fi.Mode().Type())
	case fi.Size() > r.maxCacheFile():
		err = fmt.Errorf("%s holds %d bytes, more than an index may (%d)", path, fi.Size(), r.maxCacheFile())
	}
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, fi.Size(), nil
}

// checkCacheFiles looks at the index cache's files of the roots before
// any is read, and removes one that is not to be read, with a warning
// (a build from the files writes it again): NewRunner's, whose warnings
// a program shows before its first call.
func (r *Runner) checkCacheFiles() {
	for i := range r.cfg.roots {
		path, _ := r.cacheFile(i)
		f, _, err := r.openCacheFile(path)
		switch {
		case err == nil:
			f.Close()
		case errors.Is(err, fs.ErrNotExist):
		default:
			r.warnings = append(r.warnings, fmt.Sprintf("the index cache's file was not read, and is removed (the index is built from the files): %v", err))
			os.Remove(path)
		}
	}
}

// cacheWriter writes the index cache's files from an index request's
// Saved lines, each under a temporary name until the request succeeds.
type cacheWriter struct {
	r     *Runner
	files map[string]*os.File // by root name
	paths map[string]string
	err   error
}

func (w *cacheWriter) write(ch *protocol.Chunk) error {
	if w.err != nil {
		return nil // no cache this time; the index is built all the same
	}
	f := w.files[ch.Root]
	if f == nil {
		i := slices.IndexFunc(w.r.cfg.roots, func(r root) bool { return r.Name == ch.Root })
		if i < 0 {
			return errors.New("saved: no root " + ch.Root)
		}
		path, key := w.r.cacheFile(i)
		if f, w.err = os.CreateTemp(w.r.indexCache, savingPrefix+"*"); w.err != nil {
			return nil
		}
		w.files[ch.Root], w.paths[ch.Root] = f, path
		if _, w.err = f.Write(append([]byte(cacheMagic), key[:]...)); w.err != nil {
			return nil
		}
	}
	_, w.err = f.Write(ch.Bytes)
	return nil
}

// savingPrefix names a cache file being written; staleAfter is when one
// is taken for the leftover of a process that died writing it.
const (
	savingPrefix = ".saving-"
	staleAfter   = 24 * time.Hour
)

// removeStale removes the files of dir that processes died writing.
func removeStale(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if fi, err := e.Info(); err == nil && strings.HasPrefix(e.Name(), savingPrefix) && fi.Mode().IsRegular() && time.Since(fi.ModTime()) > staleAfter {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// used marks a cache file used now (its modification time): the files
// used least recently are the first removed past the cache's limit.
func used(f *os.File) {
	now := time.Now()
	_ = os.Chtimes(f.Name(), now, now)
}

// trim removes the index files of dir used least recently (by their
// modification time, the newest kept first) until those left hold at
// most limit bytes. Only regular files with the cache's suffix are
// counted or removed; a file being written (savingPrefix) is
// removeStale's.
func trim(dir string, limit int64) {
	type file struct {
		name string
		size int64
		at   time.Time
	}
	var files []file
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), cacheSuffix) || !e.Type().IsRegular() {
			continue
		}
		if fi, err := e.Info(); err == nil {
			files = append(files, file{e.Name(), fi.Size(), fi.ModTime()})
		}
	}
	slices.SortFunc(files, func(a, b file) int {
		if c := b.at.Compare(a.at); c != 0 {
			return c
		}
		return strings.Compare(a.name, b.name)
	})
	held := int64(0)
	for _, f := range files {
		if held+f.size <= limit {
			held += f.size
			continue
		}
		os.Remove(filepath.Join(dir, f.name))
	}
}

// finish puts the files written in place when ok, and removes them
// otherwise.
func (w *cacheWriter) finish(ok bool) {
	for name, f := range w.files {
		err := f.Close()
		if ok && w.err == nil && err == nil && os.Rename(f.Name(), w.paths[name]) == nil {
			continue
		}
		os.Remove(f.Name())
	}
}
