package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"slices"
	"time"
)

// The OCI image is built as ko builds Go images: the static binary in one
// layer on an empty base, described by hand-written OCI documents, so no
// container engine is needed (none runs here) and the bytes are the same
// on every build. It is written as an OCI image layout (the format of
// `docker buildx --output type=oci`, `skopeo copy oci-archive:...`) in one
// tar file: index.json names the multi-platform index by the version, and
// each platform's manifest by VERSION-linux-ARCH.
//
// The layer holds /rootbound, an empty /workspace (the default root: mount
// a directory there, read-only) and /tmp (1777, the home and cache of the
// user, 65532, that runs it).

const (
	mediaIndex    = "application/vnd.oci.image.index.v1+json"
	mediaManifest = "application/vnd.oci.image.manifest.v1+json"
	mediaConfig   = "application/vnd.oci.image.config.v1+json"
	mediaLayer    = "application/vnd.oci.image.layer.v1.tar+gzip"
	annotationRef = "org.opencontainers.image.ref.name"
)

// Descriptor is an OCI content descriptor.
type Descriptor struct {
	MediaType   string            `json:"mediaType"`
	Digest      string            `json:"digest"`
	Size        int64             `json:"size"`
	Platform    *OCIPlatform      `json:"platform,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

// OCIPlatform is a descriptor's platform.
type OCIPlatform struct {
	Architecture string `json:"architecture"`
	OS           string `json:"os"`
}

// layout collects the blobs of an OCI image layout.
type layout struct{ blobs map[string][]byte }

// add stores b as a blob and returns its descriptor.
func (l *layout) add(mediaType string, b []byte) Descriptor {
	sum := sha256.Sum256(b)
	d := "sha256:" + hex.EncodeToString(sum[:])
	l.blobs[d] = b
	return Descriptor{MediaType: mediaType, Digest: d, Size: int64(len(b))}
}

// addJSON stores v, marshalled, as a blob.
func (l *layout) addJSON(mediaType string, v any) (Descriptor, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return Descriptor{}, err
	}
	return l.add(mediaType, b), nil
}

// ImageRef is the name a platform's manifest has in the layout.
func (r *Release) ImageRef(arch string) string { return r.Version + "-linux-" + arch }

// image writes the OCI image layout of rootbound mcp.
func (r *Release) image() error {
	l := &layout{blobs: map[string][]byte{}}
	var platforms []Descriptor
	for _, p := range Platforms {
		if p.OS != "linux" {
			continue
		}
		bin, err := os.ReadFile(r.Binary(p))
		if err != nil {
			return err
		}
		layer, diffID, err := layerOf(bin)
		if err != nil {
			return err
		}
		layerDesc := l.add(mediaLayer, layer)
		config, err := l.addJSON(mediaConfig, map[string]any{
			"created":      epoch.Format(time.RFC3339),
			"architecture": p.Arch,
			"os":           "linux",
			"config": map[string]any{
				"User":       "65532:65532",
				"Env":        []string{"HOME=/tmp", "ROOTBOUND_SERVER=off"},
				"Entrypoint": []string{"/rootbound", "mcp"},
				"Cmd":        []string{"--root", "/workspace"},
				"WorkingDir": "/workspace",
				"Labels": map[string]string{
					"io.modelcontextprotocol.server.name": ServerName,
					"org.opencontainers.image.source":     Repository,
					"org.opencontainers.image.version":    r.Version,
					"org.opencontainers.image.licenses":   "Apache-2.0",
					"org.opencontainers.image.title":      "rootbound",
				},
			},
			"rootfs":  map[string]any{"type": "layers", "diff_ids": []string{diffID}},
			"history": []map[string]string{{"created": epoch.Format(time.RFC3339), "created_by": "rootbound release (make release)"}},
		})
		if err != nil {
			return err
		}
		manifest, err := l.addJSON(mediaManifest, map[string]any{
			"schemaVersion": 2,
			"mediaType":     mediaManifest,
			"config":        config,
			"layers":        []Descriptor{layerDesc},
		})
		if err != nil {
			return err
		}
		manifest.Platform = &OCIPlatform{Architecture: p.Arch, OS: "linux"}
		platforms = append(platforms, manifest)
	}
	index, err := l.addJSON(mediaIndex, map[string]any{"schemaVersion": 2, "mediaType": mediaIndex, "manifests": platforms})
	if err != nil {
		return err
	}
	index.Annotations = map[string]string{annotationRef: r.Version}
	top := []Descriptor{index}
	for _, m := range platforms {
		m.Annotations = map[string]string{annotationRef: r.ImageRef(m.Platform.Architecture)}
		top = append(top, m)
	}
	indexJSON, err := json.Marshal(map[string]any{"schemaVersion": 2, "mediaType": mediaIndex, "manifests": top})
	if err != nil {
		return err
	}
	files := []tarEntry{
		{name: "oci-layout", data: []byte(`{"imageLayoutVersion":"1.0.0"}`), mode: 0o644},
		{name: "index.json", data: indexJSON, mode: 0o644},
		{name: "blobs/", dir: true, mode: 0o755},
		{name: "blobs/sha256/", dir: true, mode: 0o755},
	}
	for _, d := range slices.Sorted(func(yield func(string) bool) {
		for d := range l.blobs {
			if !yield(d) {
				return
			}
		}
	}) {
		files = append(files, tarEntry{name: "blobs/sha256/" + d[len("sha256:"):], data: l.blobs[d], mode: 0o644})
	}
	archive, err := tarOf(files)
	if err != nil {
		return err
	}
	return os.WriteFile(r.ImageArchive(), archive, 0o644)
}

// layerOf returns the image's one layer, gzipped, and its diff ID (the
// digest of the tar before compression).
func layerOf(bin []byte) (gz []byte, diffID string, err error) {
	raw, err := tarOf([]tarEntry{
		{name: "rootbound", data: bin, mode: 0o755},
		{name: "tmp/", dir: true, mode: 0o1777},
		{name: "workspace/", dir: true, mode: 0o755},
	})
	if err != nil {
		return nil, "", err
	}
	sum := sha256.Sum256(raw)
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, "", err
	}
	if _, err := zw.Write(raw); err != nil {
		return nil, "", err
	}
	if err := zw.Close(); err != nil {
		return nil, "", err
	}
	return buf.Bytes(), "sha256:" + hex.EncodeToString(sum[:]), nil
}

type tarEntry struct {
	name string
	data []byte
	mode int64
	dir  bool
}

// tarOf writes entries in their order, owned by root, at the release's
// epoch.
func tarOf(entries []tarEntry) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Mode: e.mode, Size: int64(len(e.data)), ModTime: epoch, Typeflag: tar.TypeReg, Format: tar.FormatPAX}
		if e.dir {
			h.Typeflag, h.Size = tar.TypeDir, 0
		}
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
		if _, err := tw.Write(e.data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
