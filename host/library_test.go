package host_test

import (
	"context"
	"go/ast"
	"go/build"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rootbound/rootbound/host"
	"github.com/rootbound/rootbound/internal/testtree"
)

// TestCloseTwice: a second Close releases nothing again, so it cannot close
// a descriptor that now belongs to someone else.
func TestCloseTwice(t *testing.T) {
	dir := testtree.New(t, map[string]string{"a.txt": "a\n"})
	r, err := host.NewRunner(context.Background(), host.NewConfig().WithRoot("/w", dir).WithRoot("/v", t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	// Take the descriptors the roots held: the kernel hands out the lowest.
	var files []*os.File
	for range 8 {
		f, err := os.Open(filepath.Join(dir, "a.txt"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		files = append(files, f)
	}
	if err := r.Close(context.Background()); err != nil {
		t.Errorf("second Close: %v", err)
	}
	for _, f := range files {
		if _, err := f.Stat(); err != nil {
			t.Errorf("a file opened after the first Close was closed by the second: %v", err)
		}
	}
	if res, err := r.Glob(context.Background(), host.GlobArgs{Pattern: "*"}); err == nil || res == nil {
		t.Errorf("a call after Close: %v, want an error", err)
	}
}

// TestCompilationCacheFallback: a cache directory that cannot be written is
// replaced by one under the temporary directory, and the runner says so.
func TestCompilationCacheFallback(t *testing.T) {
	notADir := filepath.Join(t.TempDir(), "file")
	os.WriteFile(notADir, nil, 0o644)
	t.Setenv("XDG_CACHE_HOME", notADir)
	t.Setenv("TMPDIR", t.TempDir())
	dir := t.TempDir()
	r, err := host.NewRunner(context.Background(), host.NewConfig().WithRoot("/w", dir))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(context.Background())
	if w := strings.Join(r.Warnings(), "; "); !strings.Contains(w, "the compilation cache is in "+os.TempDir()) {
		t.Errorf("warnings %q, want the fallback named", w)
	}
	none, err := host.NewRunner(context.Background(), host.NewConfig().WithRoot("/w", dir).WithCacheDir(notADir))
	if err != nil {
		t.Fatal(err)
	}
	defer none.Close(context.Background())
	if w := strings.Join(none.Warnings(), "; "); !strings.Contains(w, "no compilation cache") {
		t.Errorf("warnings %q, want no cache said", w)
	}
}

func TestModuleIsACopy(t *testing.T) {
	m := host.Module()
	m[0] ^= 0xff
	if host.Module()[0] == m[0] {
		t.Error("Module hands out the embedded bytes: a caller changed them")
	}
}

func TestGrepDescriptionStatesTheSizeCap(t *testing.T) {
	r := newRunner(t, host.NewConfig().WithRoot("/w", t.TempDir()).WithMaxFileSize(512<<10))
	if d := host.NewTools(r).Specs()[1].Description; !strings.Contains(d, "over 512 KiB") {
		t.Errorf("grep description %q, want the runner's cap", d)
	}
}

// TestDocumentedAPI: a Go user needs one import, and finds every type
// and constant documented in package host itself, a type's fields there or
// in package protocol, whose type it is.
func TestDocumentedAPI(t *testing.T) {
	fset := token.NewFileSet()
	bp, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	p, err := doc.NewFromFiles(fset, files, "github.com/rootbound/rootbound/host")
	if err != nil {
		t.Fatal(err)
	}
	types := map[string]*doc.Type{}
	for _, ty := range p.Types {
		types[ty.Name] = ty
	}
	for _, name := range []string{"GlobArgs", "GrepArgs", "Item", "Problem", "Done", "Skipped", "Stats", "Error"} {
		ty := types[name]
		if ty == nil {
			t.Errorf("host has no type %s", name)
			continue
		}
		// A struct of its own, or the protocol's (one type for a call's
		// arguments and results, the module's and the caller's).
		spec := ty.Decl.Specs[0].(*ast.TypeSpec)
		_, isStruct := spec.Type.(*ast.StructType)
		sel, isProtocol := spec.Type.(*ast.SelectorExpr)
		if isProtocol {
			x, _ := sel.X.(*ast.Ident)
			isProtocol = spec.Assign.IsValid() && x != nil && x.Name == "protocol"
		}
		if !isStruct && !isProtocol {
			t.Errorf("host.%s is neither a struct nor the protocol's (go doc would show no fields)", name)
			continue
		}
		if ty.Doc == "" {
			t.Errorf("host.%s has no doc comment", name)
		}
	}
	consts := map[string]bool{}
	for _, group := range append(p.Consts, func() []*doc.Value {
		var vs []*doc.Value
		for _, ty := range p.Types {
			vs = append(vs, ty.Consts...)
		}
		return vs
	}()...) {
		for _, n := range group.Names {
			consts[n] = true
		}
	}
	for _, name := range []string{"ModeFiles", "ModeContent", "ModeCount", "CaseSensitive", "CaseInsensitive", "CaseSmart",
		"StatusComplete", "StatusPartial", "StatusFailed", "CodeInvalidPattern", "CodeDeadline", "CodeOutsideRoot", "CodeCancelled"} {
		if !consts[name] {
			t.Errorf("host has no constant %s", name)
		}
	}
}

// TestReadmeSnippet compiles the README's Go snippet as a program of its own.
func TestReadmeSnippet(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```go\n(.*?)```").FindSubmatch(readme)
	if m == nil {
		t.Fatal("README has no Go snippet")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	main := "package main\n\nimport (\n\t\"context\"\n\t\"fmt\"\n\t\"time\"\n\n\t\"github.com/rootbound/rootbound/host\"\n)\n\nfunc main() {\n\tctx := context.Background()\n" +
		string(m[1]) + "\n}\n"
	sum, _ := os.ReadFile("../go.sum")
	for name, body := range map[string]string{
		"main.go": main,
		"go.mod":  "module readme\n\ngo 1.26\n\nrequire github.com/rootbound/rootbound v0.0.0\n\nreplace github.com/rootbound/rootbound => " + root + "\n",
		"go.sum":  string(sum),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "vet", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("the README's snippet does not compile: %v\n%s\n%s", err, out, main)
	}
}
