package main

// The upgrade advisor's own knowledge, free of any SDK: which dependencies of a package.json
// need attention before a service moves to another Node.js major, and the report about them.
// A small rule table (plausible and deterministic, not an authority on these packages), the same
// facts as the project's TypeScript sample agent, written again so that this peer is an agent of
// its own.

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

const (
	reportArtifactID   = "compatibility-report"
	reportArtifactName = "Compatibility report"
	sortedArtifactID   = "sorted-fix-suggestions"
	sortedArtifactName = "Fix suggestions by risk"
)

var risks = []string{"high", "medium", "low"}

type finding struct {
	Name, Current, Suggested, Risk, Reason string
}

func (f finding) data() map[string]any {
	return map[string]any{"name": f.Name, "current": f.Current, "suggested": f.Suggested, "risk": f.Risk, "reason": f.Reason}
}

var (
	namedNode    = regexp.MustCompile(`(?i)\bnode(?:\.?js)?\s*(?:version\s*)?v?(\d{1,3})(?:\.\d+){0,2}\b`)
	bareNode     = regexp.MustCompile(`^\s*v?(\d{1,3})(?:\.\d+){0,2}\s*\.?\s*$`)
	firstVersion = regexp.MustCompile(`(\d+)(?:\.(\d+))?(?:\.(\d+))?`)
)

// parseTargetNode reads the Node.js major a text names ("Node.js 24"); a bare "24" only when bare.
func parseTargetNode(text string, bare bool) (int, bool) {
	match := namedNode.FindStringSubmatch(text)
	if match == nil && bare {
		match = bareNode.FindStringSubmatch(text)
	}
	if match == nil {
		return 0, false
	}
	major, err := strconv.Atoi(match[1])
	return major, err == nil && major > 0 && major < 100
}

type version [3]int

func (v version) less(o version) bool {
	for i := range v {
		if v[i] != o[i] {
			return v[i] < o[i]
		}
	}
	return false
}

// lowest is the first version a range names (`^5.0.1` → 5.0.1); false for `latest`, `github:…`.
func lowest(rangeText string) (version, bool) {
	match := firstVersion.FindStringSubmatch(rangeText)
	if match == nil {
		return version{}, false
	}
	var v version
	for i := range v {
		v[i], _ = strconv.Atoi(match[i+1])
	}
	return v, true
}

func rule(name string, v version, target int) (risk, suggested, reason string, ok bool) {
	major := v[0]
	switch {
	case name == "node-sass":
		return "high", "sass ^1.77.0", fmt.Sprintf("node-sass is deprecated and publishes no binaries for Node.js %d.", target), true
	case name == "bcrypt" && v.less(version{5, 1, 0}):
		return "medium", "^5.1.1", fmt.Sprintf("bcrypt %d compiles at install time on Node.js %d (no prebuilt binary).", major, target), true
	case name == "request":
		return "medium", "built-in fetch (or undici)", "request is unmaintained since 2020; Node.js has fetch.", true
	case name == "sharp" && v.less(version{0, 33, 0}):
		return severeFrom(22, target), "^0.33.5", fmt.Sprintf("this sharp has no prebuilt libvips for Node.js %d; 0.33 ships Node-API builds.", target), true
	case name == "sqlite3" && v.less(version{5, 1, 7}):
		return severeFrom(22, target), "^5.1.7", fmt.Sprintf("this sqlite3 has no prebuilt binary for Node.js %d; node-gyp would build it.", target), true
	case name == "jest" && major < 29:
		return "medium", "^29.7.0", fmt.Sprintf("jest %d is out of support and untested on Node.js %d.", major, target), true
	case name == "express" && major < 5:
		return "low", "^5.1.0", "express 4 only receives security fixes; express 5 is the maintained line.", true
	case name == "node-fetch" && major < 3 && target >= 18:
		return "low", "built-in fetch", fmt.Sprintf("Node.js %d has fetch built in; node-fetch 2 is in maintenance mode.", target), true
	case name == "@types/node" && major < target:
		return "low", fmt.Sprintf("^%d.0.0", target), fmt.Sprintf("the type definitions describe Node.js %d, not %d.", major, target), true
	}
	return "", "", "", false
}

func severeFrom(from, target int) string {
	if target >= from {
		return "high"
	}
	return "medium"
}

// analyse returns the findings in manifest order (dependencies, then devDependencies, by name).
func analyse(manifest map[string]any, target int) []finding {
	var findings []finding
	for _, section := range []string{"dependencies", "devDependencies"} {
		deps, _ := manifest[section].(map[string]any)
		names := make([]string, 0, len(deps))
		for name := range deps {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			rangeText, isString := deps[name].(string)
			v, ok := lowest(rangeText)
			if !isString || !ok {
				continue
			}
			if risk, suggested, reason, ok := rule(name, v, target); ok {
				findings = append(findings, finding{name, rangeText, suggested, risk, reason})
			}
		}
	}
	return findings
}

func riskIndex(risk string) int {
	for i, r := range risks {
		if r == risk {
			return i
		}
	}
	return len(risks)
}

func sortByRisk(findings []finding) []finding {
	sorted := append([]finding(nil), findings...)
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i], sorted[j]
		if riskIndex(a.Risk) != riskIndex(b.Risk) {
			return riskIndex(a.Risk) < riskIndex(b.Risk)
		}
		return a.Name < b.Name
	})
	return sorted
}

func countByRisk(findings []finding) map[string]int {
	counts := map[string]int{}
	for _, f := range findings {
		counts[f.Risk]++
	}
	return counts
}

func findingsData(findings []finding) []any {
	data := make([]any, len(findings))
	for i, f := range findings {
		data[i] = f.data()
	}
	return data
}

// chunkPart is one part of a report chunk: markdown text, or JSON data.
type chunkPart struct {
	text string
	data map[string]any
}

// reportChunks is the report as three chunks: title, findings table, summary plus the JSON findings.
func reportChunks(manifest map[string]any, target int, findings []finding, packageManager string) [][]chunkPart {
	service, _ := manifest["name"].(string)
	if service == "" {
		service = "the service"
	}
	deps, _ := manifest["dependencies"].(map[string]any)
	dev, _ := manifest["devDependencies"].(map[string]any)
	heading := fmt.Sprintf("# Compatibility report: %s on Node.js %d\n\nChecked %d dependencies.\n\n", service, target, len(deps)+len(dev))
	var table strings.Builder
	table.WriteString("## Findings\n\n| Package | Current | Suggested | Risk | Reason |\n| --- | --- | --- | --- | --- |\n")
	for _, f := range findings {
		fmt.Fprintf(&table, "| %s | %s | %s | %s | %s |\n", f.Name, f.Current, f.Suggested, f.Risk, f.Reason)
	}
	table.WriteString("\n")
	counts := countByRisk(findings)
	var summary strings.Builder
	summary.WriteString("## Summary\n\n")
	for _, risk := range risks {
		fmt.Fprintf(&summary, "- %s%s risk: %d\n", strings.ToUpper(risk[:1]), risk[1:], counts[risk])
	}
	if packageManager != "" {
		fmt.Fprintf(&summary, "- Package manager: %s\n", packageManager)
	}
	return [][]chunkPart{
		{{text: heading}},
		{{text: table.String()}},
		{{text: summary.String()}, {data: map[string]any{"targetNode": target, "findings": findingsData(findings)}}},
	}
}

func sortedSuggestionsText(findings []finding) string {
	var text strings.Builder
	text.WriteString("# Fix suggestions by risk\n\n")
	for i, f := range findings {
		fmt.Fprintf(&text, "%d. **%s** (%s): %s → %s. %s\n", i+1, f.Name, f.Risk, f.Current, f.Suggested, f.Reason)
	}
	if len(findings) == 0 {
		text.WriteString("Nothing to fix.\n")
	}
	return text.String()
}
