package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tetratelabs/wazero/sys"

	"github.com/rootbound/rootbound/host"
	"github.com/rootbound/rootbound/host/internal/rootfs"
)

// What glob's host-side filters ask (fd -t x, -S, --changed-before,
// --min-depth): the module sees no permission bits, and its items carry
// neither size nor time, so the host looks, through the root's directory
// and without following a link at any component (package rootfs).
type entryFilter struct {
	executable    bool
	sizes         []sizeBound
	changedBefore time.Duration // 0: none
	minDepth      int
	now           time.Time
}

// stats reports whether the filter must look at each entry's metadata.
func (f *entryFilter) stats() bool {
	return f.executable || len(f.sizes) > 0 || f.changedBefore > 0
}

// wrap passes on, of the entries a glob finds, those the filter keeps.
func (f *entryFilter) wrap(fsys *rootfs.FS, each func(host.Item) error) func(host.Item) error {
	return func(it host.Item) error {
		if f.minDepth > 0 && strings.Count(strings.TrimSuffix(string(it.Path), "/"), "/")+1 < f.minDepth {
			return nil
		}
		if fsys != nil {
			st, errno := fsys.Lstat(string(it.Path))
			if errno != 0 || !f.keep(st) {
				return nil
			}
		}
		return each(it)
	}
}

func (f *entryFilter) keep(st sys.Stat_t) bool {
	file := st.Mode.IsRegular()
	if f.executable && (!file || st.Mode.Perm()&0o111 == 0) {
		return false
	}
	for _, b := range f.sizes {
		if !file || !b.holds(st.Size) {
			return false
		}
	}
	if f.changedBefore > 0 && !time.Unix(0, st.Mtim).Before(f.now.Add(-f.changedBefore)) {
		return false
	}
	return true
}

// sizeBound is one fd -S bound: +N (at least), -N (at most) or N
// (exactly) bytes.
type sizeBound struct {
	sign  byte
	bytes int64
}

func (b sizeBound) holds(n int64) bool {
	switch b.sign {
	case '+':
		return n >= b.bytes
	case '-':
		return n <= b.bytes
	}
	return n == b.bytes
}

// sizeBounds is fd's -S, repeatable: <+-><NUM><UNIT>, the units b, k, m,
// g, t (powers of 1000) and ki, mi, gi, ti (of 1024), in any case.
type sizeBounds []sizeBound

func (s *sizeBounds) String() string { return "" }
func (s *sizeBounds) Type() string   { return "SIZE" }

func (s *sizeBounds) Set(v string) error {
	bad := fmt.Errorf("want a size such as +10k, -1M or 512b (fd -S: + at least, - at most), not %q", v)
	var b sizeBound
	rest := v
	if rest != "" && (rest[0] == '+' || rest[0] == '-') {
		b.sign, rest = rest[0], rest[1:]
	}
	num := strings.TrimRightFunc(rest, func(r rune) bool { return r < '0' || r > '9' })
	unit, ok := sizeUnits[strings.ToLower(rest[len(num):])]
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || !ok || n < 0 || n > (1<<62)/unit {
		return bad
	}
	b.bytes = n * unit
	*s = append(*s, b)
	return nil
}

var sizeUnits = map[string]int64{
	"b": 1, "k": 1e3, "m": 1e6, "g": 1e9, "t": 1e12,
	"ki": 1 << 10, "mi": 1 << 20, "gi": 1 << 30, "ti": 1 << 40,
}

// durationValue is a length of time as fd takes it (parseDuration).
type durationValue time.Duration

func (d *durationValue) String() string { return "" }
func (d *durationValue) Type() string   { return "DURATION" }

func (d *durationValue) Set(s string) error {
	v, err := parseDuration(s)
	*d = durationValue(v)
	return err
}
