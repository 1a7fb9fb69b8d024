package main

// What one task's conversation has established so far, and the test switches it carries: the
// ones every sample agent of the project honours, read from the user messages' metadata (the
// latest value wins, so a switch set on the first message still applies to the answers).

import (
	"strconv"
	"strings"
	"time"

	"github.com/a2aproject/a2a-go/a2a"
)

var scenarios = map[string]bool{
	"fail": true, "reject": true, "message": true, "second-question": true, "auth-required": true, "never-finish": true,
}

const (
	questionTargetNode     = "target-node"
	questionPackageManager = "package-manager"
	questionRegistryAuth   = "registry-auth"
)

type switches struct {
	scenario                   string
	workDelay, chunkDelay, ack time.Duration
}

func (s *switches) apply(metadata map[string]any) {
	if named, ok := metadata["scenario"].(string); ok && scenarios[named] {
		s.scenario = named
	}
	s.workDelay = delay(metadata["workDelayMs"], s.workDelay)
	s.chunkDelay = delay(metadata["chunkDelayMs"], s.chunkDelay)
	s.ack = delay(metadata["ackDelayMs"], s.ack)
}

// delay reads a non-negative number of milliseconds (numeric strings too); else keeps current.
func delay(value any, current time.Duration) time.Duration {
	var ms float64
	switch v := value.(type) {
	case float64:
		ms = v
	case string:
		parsed, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil {
			return current
		}
		ms = parsed
	default:
		return current
	}
	if ms < 0 {
		return current
	}
	return time.Duration(ms * float64(time.Millisecond))
}

type conversation struct {
	switches       switches
	manifest       map[string]any
	targetNode     int
	packageManager string
	authorized     bool
	// pending is the id of the question the agent asked last and nobody answered yet.
	pending string
}

func looksLikeManifest(data map[string]any) bool {
	_, ok := data["dependencies"].(map[string]any)
	return ok
}

func carriesManifest(message *a2a.Message) bool {
	for _, part := range message.Parts {
		if data, ok := part.(a2a.DataPart); ok && looksLikeManifest(data.Data) {
			return true
		}
	}
	return false
}

// hear takes in one user message: switches, a manifest, and the answer to the pending question.
func (c *conversation) hear(message *a2a.Message) {
	c.switches.apply(message.Metadata)
	var texts []string
	for _, part := range message.Parts {
		switch p := part.(type) {
		case a2a.TextPart:
			texts = append(texts, p.Text)
		case a2a.DataPart:
			if looksLikeManifest(p.Data) {
				c.manifest = p.Data
			}
		}
	}
	text := strings.Join(texts, "\n")
	if major, ok := parseTargetNode(text, c.pending == questionTargetNode); ok {
		c.targetNode = major
	}
	switch c.pending {
	case questionPackageManager:
		c.packageManager = packageManagerIn(text)
	case questionRegistryAuth:
		c.authorized = true
	}
	c.pending = ""
}

func packageManagerIn(text string) string {
	lower := strings.ToLower(text)
	for _, name := range []string{"pnpm", "npm", "yarn", "bun"} {
		if strings.Contains(lower, name) {
			return name
		}
	}
	if trimmed := strings.TrimSpace(text); trimmed != "" {
		return trimmed
	}
	return "unspecified"
}
