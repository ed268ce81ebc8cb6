package main

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

// The release is made once for all the tests (and a second time, into
// another directory, to hold it to the first byte for byte).
var (
	made    *Release
	makeErr error
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "rootbound-release")
	if err != nil {
		panic(err)
	}
	made, makeErr = New("..", filepath.Join(dir, "dist"))
	if makeErr == nil {
		makeErr = made.Make()
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func release(t *testing.T) *Release {
	t.Helper()
	if makeErr != nil {
		t.Fatal(makeErr)
	}
	return made
}

// need returns the path of a program a test runs: make release-check
// installs them, and a missing one fails the test there
// (ROOTBOUND_COMPARE=1); elsewhere the test is skipped.
func need(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("ROOTBOUND_COMPARE") != "" {
			t.Fatalf("%s is not installed (make tools installs it)", name)
		}
		t.Skipf("%s is not installed (make tools installs it)", name)
	}
	return p
}

// nodeModule returns the path of a command of release/node_modules (make
// release-check runs npm ci first).
func nodeModule(t *testing.T, bin string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("node_modules", ".bin", bin))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("ROOTBOUND_COMPARE") != "" {
			t.Fatalf("%s: run npm ci in release/ (make release-check does)", bin)
		}
		t.Skipf("%s: run npm ci in release/ (make release-check does)", bin)
	}
	return p
}

func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %q: %v\n%s", name, args, err, out)
	}
	return string(out)
}

// workspace is a small tree for the artifacts to search.
func workspace(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("hay\nneedle in a haystack\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sub", "b.go"), []byte("package sub // no needle\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

var self = Platform{runtime.GOOS, runtime.GOARCH}

func TestBinaries(t *testing.T) {
	r := release(t)
	for _, p := range Platforms {
		t.Run(p.OS+"/"+p.Arch, func(t *testing.T) {
			f, err := os.Open(r.Binary(p))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			arch := map[string]string{}
			switch p.OS {
			case "linux":
				e, err := elf.NewFile(f)
				if err != nil {
					t.Fatal(err)
				}
				arch[p.Arch] = map[elf.Machine]string{elf.EM_X86_64: "amd64", elf.EM_AARCH64: "arm64"}[e.Machine]
				for _, prog := range e.Progs {
					if prog.Type == elf.PT_INTERP || prog.Type == elf.PT_DYNAMIC {
						t.Errorf("not static: it has a %v segment", prog.Type)
					}
				}
			case "darwin":
				m, err := macho.NewFile(f)
				if err != nil {
					t.Fatal(err)
				}
				arch[p.Arch] = map[macho.Cpu]string{macho.CpuAmd64: "amd64", macho.CpuArm64: "arm64"}[m.Cpu]
			case "windows":
				w, err := pe.NewFile(f)
				if err != nil {
					t.Fatal(err)
				}
				arch[p.Arch] = map[uint16]string{pe.IMAGE_FILE_MACHINE_AMD64: "amd64", pe.IMAGE_FILE_MACHINE_ARM64: "arm64"}[w.Machine]
			}
			if arch[p.Arch] != p.Arch {
				t.Errorf("built for %q, want %s", arch[p.Arch], p.Arch)
			}
		})
	}
	t.Run("version", func(t *testing.T) {
		if !slices.Contains(Platforms, self) {
			t.Skip("no binary of this platform")
		}
		got := run(t, "", nil, r.Binary(self), "version")
		if want := "rootbound " + r.Version + " (protocol 1, module sha256 "; !strings.HasPrefix(got, want) {
			t.Errorf("version = %q, want it to start %q", got, want)
		}
		// The same version from every subcommand.
		if again := run(t, "", nil, r.Binary(self), "grep", "--version"); again != got {
			t.Errorf("grep --version = %q, version = %q", again, got)
		}
	})
	t.Run("sums", func(t *testing.T) {
		need(t, "sha256sum")
		run(t, r.Out, nil, "sha256sum", "--check", "--strict", "--quiet", "SHA256SUMS")
		b, _ := os.ReadFile(filepath.Join(r.Out, "SHA256SUMS"))
		entries, _ := os.ReadDir(r.Out)
		if got, want := strings.Count(string(b), "\n"), len(entries)-1; got != want {
			t.Errorf("SHA256SUMS names %d files, the release has %d besides it", got, want)
		}
	})
}

// TestReproducible makes the release again and holds it to the first:
// the same source and Go give the same bytes.
func TestReproducible(t *testing.T) {
	r := release(t)
	again, err := New("..", filepath.Join(t.TempDir(), "dist"))
	if err != nil {
		t.Fatal(err)
	}
	if err := again.Make(); err != nil {
		t.Fatal(err)
	}
	first, _ := os.ReadFile(filepath.Join(r.Out, "SHA256SUMS"))
	second, _ := os.ReadFile(filepath.Join(again.Out, "SHA256SUMS"))
	if !bytes.Equal(first, second) {
		t.Errorf("two releases of one source differ:\n%s\n%s", first, second)
	}
}

// registrySchemaDir returns the MCP registry's published server.json
// schemas, from its module (the registry validates entries with them).
func registrySchemaDir(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "mod", "download", "-json", "github.com/modelcontextprotocol/registry@v1.8.9").Output()
	if err != nil {
		t.Fatalf("go mod download the registry: %v", err)
	}
	var m struct{ Dir string }
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(m.Dir, "internal", "validators", "schemas")
}

func TestServerJSON(t *testing.T) {
	r := release(t)
	raw, err := os.ReadFile(filepath.Join(r.Out, "server.json"))
	if err != nil {
		t.Fatal(err)
	}
	// The schema the entry names, as the registry published it.
	schemaFile := filepath.Join(registrySchemaDir(t), "2025-12-11.json")
	doc, err := os.Open(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	schemaDoc, err := jsonschema.UnmarshalJSON(doc)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(SchemaURL, schemaDoc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile(SchemaURL)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(inst); err != nil {
		t.Fatalf("server.json against the registry's schema: %v", err)
	}
	// The schema must catch what it is there to catch, or passing says
	// nothing.
	var broken map[string]any
	json.Unmarshal(raw, &broken)
	broken["packages"].([]any)[1].(map[string]any)["fileSha256"] = "not a hash"
	if schema.Validate(broken) == nil {
		t.Fatal("the schema took a bundle without a SHA-256")
	}

	// What the registry checks beyond the schema (its validators'
	// rules for these package types), and that each package is this
	// release's.
	var entry struct {
		Name     string `json:"name"`
		Version  string `json:"version"`
		Packages []struct {
			RegistryType, Identifier, Version, FileSha256 string
			RegistryBaseURL                               string `json:"registryBaseUrl"`
		} `json:"packages"`
	}
	if err := json.Unmarshal(raw, &entry); err != nil {
		t.Fatal(err)
	}
	if entry.Name != ServerName || entry.Version != r.Version {
		t.Errorf("name %q version %q", entry.Name, entry.Version)
	}
	bundles := 0
	for _, p := range entry.Packages {
		switch p.RegistryType {
		case "mcpb":
			bundles++
			u, err := url.Parse(p.Identifier)
			if err != nil || u.Scheme != "https" || u.Host != "github.com" || !strings.Contains(p.Identifier, "mcp") ||
				!regexp.MustCompile(`^/[^/]+/[^/]+/releases/download/[^/]+/[^/]+$`).MatchString(u.Path) || p.RegistryBaseURL != "" {
				t.Errorf("bundle %q is not a GitHub release asset the registry takes", p.Identifier)
			}
			sum, err := fileSHA256(filepath.Join(r.Out, filepath.Base(u.Path)))
			if err != nil || sum != p.FileSha256 {
				t.Errorf("bundle %s: fileSha256 %s, the file's %s (%v)", u.Path, p.FileSha256, sum, err)
			}
		case "oci":
			if p.Version != "" || p.FileSha256 != "" || p.RegistryBaseURL != "" || p.Identifier != Image+":"+r.Version {
				t.Errorf("image %+v: the registry wants the tag in the identifier and no version, hash or base URL", p)
			}
		default:
			t.Errorf("package of type %q", p.RegistryType)
		}
	}
	if bundles != len(Platforms) {
		t.Errorf("%d bundles, want %d", bundles, len(Platforms))
	}
}

// unzip returns a zip's files.
func unzip(t *testing.T, file string) map[string]*zip.File {
	t.Helper()
	zr, err := zip.OpenReader(file)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { zr.Close() })
	files := map[string]*zip.File{}
	for _, f := range zr.File {
		files[f.Name] = f
	}
	return files
}

func extract(t *testing.T, f *zip.File, to string) {
	t.Helper()
	rc, err := f.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, f.Mode().Perm())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, rc); err != nil {
		t.Fatal(err)
	}
	out.Close()
}

func TestBundles(t *testing.T) {
	r := release(t)
	mcpb := nodeModule(t, "mcpb")
	for _, p := range Platforms {
		t.Run(p.OS+"/"+p.Arch, func(t *testing.T) {
			files := unzip(t, r.Bundle(p))
			dir := t.TempDir()
			for _, name := range []string{"manifest.json", "LICENSE", "server/" + p.Exe()} {
				f, ok := files[name]
				if !ok {
					t.Fatalf("no %s in the bundle", name)
				}
				extract(t, f, filepath.Join(dir, name))
			}
			// The bundle format's own validator.
			out := run(t, dir, nil, mcpb, "validate", "manifest.json")
			if !strings.Contains(out, "valid") {
				t.Errorf("mcpb validate: %s", out)
			}
			bin, _ := os.ReadFile(filepath.Join(dir, "server", p.Exe()))
			want, _ := os.ReadFile(r.Binary(p))
			if !bytes.Equal(bin, want) || files["server/"+p.Exe()].Mode().Perm() != 0o755 {
				t.Error("the bundle's server is not the release's binary, executable")
			}
			if p != self {
				return
			}
			// Start the server as an MCPB client would: the manifest's
			// command and arguments, its variables filled in.
			var m struct {
				Server struct {
					MCPConfig struct {
						Command string
						Args    []string
					} `json:"mcp_config"`
				}
			}
			b, _ := os.ReadFile(filepath.Join(dir, "manifest.json"))
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			ws := workspace(t)
			expand := strings.NewReplacer("${__dirname}", dir, "${user_config.workspace}", ws).Replace
			args := make([]string, len(m.Server.MCPConfig.Args))
			for i, a := range m.Server.MCPConfig.Args {
				args[i] = expand(a)
			}
			mcpSession(t, nil, expand(m.Server.MCPConfig.Command), args...)
		})
	}
}

// mcpSession starts an MCP server on stdio and holds it to a session: it
// initializes, lists the tools the bundle's manifest lists, and a grep
// finds the needle.
func mcpSession(t *testing.T, env []string, name string, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = append(os.Environ(), env...)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		stdin.Close()
		cmd.Wait()
	}()
	lines := bufio.NewScanner(stdout)
	lines.Buffer(nil, 1<<20)
	call := func(id int, method string, params any) map[string]any {
		req, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
		fmt.Fprintf(stdin, "%s\n", req)
		for lines.Scan() {
			var resp map[string]any
			if json.Unmarshal(lines.Bytes(), &resp) == nil && resp["id"] == float64(id) {
				if resp["error"] != nil {
					t.Fatalf("%s: %v", method, resp["error"])
				}
				return resp["result"].(map[string]any)
			}
		}
		t.Fatalf("%s: no answer (%v); stderr:\n%s", method, lines.Err(), stderr.String())
		return nil
	}
	call(1, "initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "rootbound-release-test", "version": "0"}})
	fmt.Fprintln(stdin, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	var names []string
	for _, tool := range call(2, "tools/list", map[string]any{})["tools"].([]any) {
		names = append(names, tool.(map[string]any)["name"].(string))
	}
	slices.Sort(names)
	var want []string
	if tools, err := (&Release{Repo: ".."}).tools(); err != nil {
		t.Fatal(err)
	} else {
		for _, tool := range tools {
			want = append(want, tool["name"])
		}
	}
	if !slices.Equal(names, want) || len(want) < 4 {
		t.Errorf("tools %q, the manifest's %q", names, want)
	}
	res := call(3, "tools/call", map[string]any{"name": "grep", "arguments": map[string]any{"pattern": "needle in", "output_mode": "content"}})
	text, _ := json.Marshal(res["content"])
	if !strings.Contains(string(text), "a.txt:2:needle in a haystack") {
		t.Errorf("grep answered %s", text)
	}
}

func TestImage(t *testing.T) {
	r := release(t)
	umoci := need(t, "umoci")
	layout := t.TempDir()
	run(t, layout, nil, "tar", "-xf", r.ImageArchive())
	for _, arch := range []string{"amd64", "arm64"} {
		t.Run(arch, func(t *testing.T) {
			bundle := filepath.Join(t.TempDir(), "bundle")
			// umoci, an OCI implementation of its own, reads the layout
			// and unpacks the image as a runtime bundle.
			run(t, "", nil, umoci, "unpack", "--rootless", "--image", layout+":"+r.ImageRef(arch), bundle)
			var config struct {
				Process struct {
					Args []string
					Env  []string
					User struct{ UID, GID int }
					Cwd  string
				}
				Annotations map[string]string
			}
			b, err := os.ReadFile(filepath.Join(bundle, "config.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &config); err != nil {
				t.Fatal(err)
			}
			if want := []string{"/rootbound", "mcp", "--root", "/workspace"}; !slices.Equal(config.Process.Args, want) {
				t.Errorf("the image runs %q, want %q", config.Process.Args, want)
			}
			if config.Process.User.UID != 65532 || config.Process.Cwd != "/workspace" {
				t.Errorf("user %+v, cwd %q", config.Process.User, config.Process.Cwd)
			}
			rootfs := filepath.Join(bundle, "rootfs")
			bin, _ := os.ReadFile(filepath.Join(rootfs, "rootbound"))
			want, _ := os.ReadFile(r.Binary(Platform{"linux", arch}))
			if !bytes.Equal(bin, want) {
				t.Fatal("the image's /rootbound is not the release's binary")
			}
			for _, d := range []string{"tmp", "workspace"} {
				if st, err := os.Stat(filepath.Join(rootfs, d)); err != nil || !st.IsDir() {
					t.Errorf("no /%s in the image (%v)", d, err)
				}
			}
			if arch != runtime.GOARCH || runtime.GOOS != "linux" {
				return
			}
			// The entrypoint, run with the image's environment, a workspace
			// in /workspace's place (no container engine runs here).
			args := slices.Clone(config.Process.Args[1:])
			args[len(args)-1] = workspace(t)
			env := slices.DeleteFunc(slices.Clone(config.Process.Env), func(e string) bool { return strings.HasPrefix(e, "PATH=") })
			env = append(env, "HOME="+t.TempDir())
			mcpSession(t, env, filepath.Join(rootfs, "rootbound"), args...)
		})
	}
	t.Run("registry label", func(t *testing.T) {
		var index struct{ Manifests []Descriptor }
		b, _ := os.ReadFile(filepath.Join(layout, "index.json"))
		json.Unmarshal(b, &index)
		refs := map[string]bool{}
		for _, m := range index.Manifests {
			refs[m.Annotations[annotationRef]] = true
		}
		for _, ref := range []string{r.Version, r.ImageRef("amd64"), r.ImageRef("arm64")} {
			if !refs[ref] {
				t.Errorf("index.json names no %s", ref)
			}
		}
		// The registry takes an image whose config labels it with the
		// server's name.
		for _, m := range index.Manifests[1:] {
			var manifest struct{ Config Descriptor }
			blob := func(d string) []byte {
				b, err := os.ReadFile(filepath.Join(layout, "blobs", "sha256", strings.TrimPrefix(d, "sha256:")))
				if err != nil {
					t.Fatal(err)
				}
				return b
			}
			json.Unmarshal(blob(m.Digest), &manifest)
			var config struct {
				Config struct{ Labels map[string]string }
			}
			json.Unmarshal(blob(manifest.Config.Digest), &config)
			if got := config.Config.Labels["io.modelcontextprotocol.server.name"]; got != ServerName {
				t.Errorf("%s: label io.modelcontextprotocol.server.name = %q", m.Annotations[annotationRef], got)
			}
		}
	})
}

// TestNPM installs the npm package into a project of its own, as a user
// would, and uses it: its command, its library, and its types.
func TestNPM(t *testing.T) {
	r := release(t)
	npm := need(t, "npm")
	project := t.TempDir()
	os.WriteFile(filepath.Join(project, "package.json"), []byte(`{"name":"scratch","private":true,"type":"module"}`), 0o644)
	// No dependency: nothing is fetched.
	run(t, project, nil, npm, "install", "--offline", "--no-audit", "--no-fund", "--loglevel=error", r.NPMPackage())
	ws := workspace(t)
	t.Run("command", func(t *testing.T) {
		got := run(t, project, nil, filepath.Join(project, "node_modules", ".bin", "rootbound"), "grep", "-n", "needle in", ws)
		if want := ws + "/a.txt:2:needle in a haystack\n"; got != want {
			t.Errorf("rootbound grep = %q, want %q", got, want)
		}
	})
	t.Run("library", func(t *testing.T) {
		script := `import { Rootbound } from 'rootbound';
const rb = new Rootbound({ '/workspace': process.argv[2] });
const g = await rb.grep({ pattern: 'needle in', output_mode: 'content' });
const l = await rb.list({ depth: 2 });
await rb.close();
console.log(JSON.stringify({ grep: g.items.map((i) => i.path.text + ':' + i.line_number), status: g.done.status, list: l.items.map((i) => i.path.text) }));
`
		os.WriteFile(filepath.Join(project, "use.mjs"), []byte(script), 0o644)
		got := run(t, project, nil, "node", "use.mjs", ws)
		want := `{"grep":["a.txt:2"],"status":"complete","list":["a.txt","sub/","sub/b.go"]}` + "\n"
		if got != want {
			t.Errorf("got %s want %s", got, want)
		}
	})
	t.Run("types", func(t *testing.T) {
		tsc := nodeModule(t, "tsc")
		ts := `import { Rootbound, type Answer, type GrepArgs } from 'rootbound';
const rb = new Rootbound('/tmp');
const args: GrepArgs = { pattern: 'x', output_mode: 'content', context: 2 };
const a: Answer = await rb.grep(args);
const n: number = a.done.results;
// @ts-expect-error: output_mode is one of the protocol's modes
await rb.grep({ pattern: 'x', output_mode: 'lines' });
// @ts-expect-error: read needs a path
await rb.read({});
export { n };
`
		os.WriteFile(filepath.Join(project, "use.ts"), []byte(ts), 0o644)
		run(t, project, nil, tsc, "--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022", "use.ts")
	})
}

// TestGoInstall publishes the module, as it stands, at VERSION's tag on a
// module proxy of its own (a directory), and installs the command from it
// as README says: go install MODULE/host/cmd/rootbound@latest. The
// version it prints is the tag's. Nothing outside the test's directories
// is written: the module cache is one of its own, filled from the
// machine's (itself a proxy) and, for what that lacks, the Go proxy. The
// checksum database is not asked (GOSUMDB=off): what the machine's cache
// holds was checked when it was downloaded, and a test that waits on the
// network once ran out go test's time on a busy machine.
func TestGoInstall(t *testing.T) {
	r := release(t)
	const modPath = "github.com/rootbound/rootbound"
	tag := "v" + r.Version
	proxy := t.TempDir()
	at := filepath.Join(proxy, modPath, "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		t.Fatal(err)
	}
	// The files of the checkout that git would commit: tracked ones and
	// new ones not ignored (nested modules are left out by zip.Create).
	list := run(t, r.Repo, nil, "git", "ls-files", "--cached", "--others", "--exclude-standard", "-z")
	var files []modzip.File
	for _, name := range strings.Split(strings.TrimSuffix(list, "\x00"), "\x00") {
		if st, err := os.Lstat(filepath.Join(r.Repo, name)); err == nil && st.Mode().IsRegular() {
			files = append(files, checkoutFile{r.Repo, name})
		}
	}
	z, err := os.Create(filepath.Join(at, tag+".zip"))
	if err != nil {
		t.Fatal(err)
	}
	if err := modzip.Create(z, module.Version{Path: modPath, Version: tag}, files); err != nil {
		t.Fatal(err)
	}
	z.Close()
	gomod, _ := os.ReadFile(filepath.Join(r.Repo, "go.mod"))
	os.WriteFile(filepath.Join(at, tag+".mod"), gomod, 0o644)
	os.WriteFile(filepath.Join(at, tag+".info"), []byte(`{"Version":"`+tag+`","Time":"2026-01-01T00:00:00Z"}`), 0o644)
	os.WriteFile(filepath.Join(at, "list"), []byte(tag+"\n"), 0o644)

	cache := strings.TrimSpace(run(t, "", nil, "go", "env", "GOMODCACHE"))
	bin := t.TempDir()
	env := []string{
		"GOPROXY=file://" + proxy + ",file://" + filepath.Join(cache, "cache", "download") + ",https://proxy.golang.org",
		"GOSUMDB=off", "GOMODCACHE=" + t.TempDir(), "GOFLAGS=-modcacherw", "GOWORK=off", "GOBIN=" + bin,
		"CGO_ENABLED=0",
	}
	run(t, t.TempDir(), env, "go", "install", modPath+"/host/cmd/rootbound@latest")
	got := run(t, "", nil, filepath.Join(bin, "rootbound"), "version")
	if want := "rootbound " + r.Version + " (protocol 1, module sha256 "; !strings.HasPrefix(got, want) {
		t.Errorf("the installed command says %q, want %q...", got, want)
	}
}

// checkoutFile is a file of the checkout, for zip.Create.
type checkoutFile struct{ repo, name string }

func (f checkoutFile) Path() string                 { return f.name }
func (f checkoutFile) Lstat() (os.FileInfo, error)  { return os.Lstat(filepath.Join(f.repo, f.name)) }
func (f checkoutFile) Open() (io.ReadCloser, error) { return os.Open(filepath.Join(f.repo, f.name)) }
