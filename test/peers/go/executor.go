package main

// The upgrade advisor as an a2asrv.AgentExecutor of a2a-go (A2A 0.3). Each Execute call is one
// turn of a task; the turn logic and the scenario switches follow the project's sample agents,
// so the same delegation tests run against this agent and against ours. Events are written the
// way the SDK's documented template writes them: a new task starts with a `submitted` status
// update, and a status that ends the turn (terminal, input-required, auth-required) is Final.

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2asrv"
	"github.com/a2aproject/a2a-go/a2asrv/eventqueue"
)

type advisorExecutor struct {
	defaults switches

	mu sync.Mutex
	// conversations: task id → what the task's conversation established; dropped when it ends.
	conversations map[a2a.TaskID]*conversation
	// reports: the findings of every completed report, for follow-ups that reference the task.
	reports map[a2a.TaskID][]finding
}

func newAdvisorExecutor(defaults switches) *advisorExecutor {
	return &advisorExecutor{
		defaults:      defaults,
		conversations: map[a2a.TaskID]*conversation{},
		reports:       map[a2a.TaskID][]finding{},
	}
}

var _ a2asrv.AgentExecutor = (*advisorExecutor)(nil)

// turn publishes the events of one Execute call.
type turn struct {
	ctx    context.Context
	reqCtx *a2asrv.RequestContext
	queue  eventqueue.Queue
}

func (t turn) say(text string, metadata map[string]any) *a2a.Message {
	message := a2a.NewMessageForTask(a2a.MessageRoleAgent, t.reqCtx, a2a.TextPart{Text: text})
	message.Metadata = metadata
	return message
}

func (t turn) status(state a2a.TaskState, message *a2a.Message) error {
	event := a2a.NewStatusUpdateEvent(t.reqCtx, state, message)
	event.Final = state.Terminal() || state == a2a.TaskStateInputRequired || state == a2a.TaskStateAuthRequired
	return t.queue.Write(t.ctx, event)
}

// sleep waits unless the turn is canceled first; false when canceled.
func (t turn) sleep(d time.Duration) bool {
	if d <= 0 {
		return t.ctx.Err() == nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-t.ctx.Done():
		return false
	}
}

// stream writes one artifact as artifact-update events: the first replaces, the rest append.
func (t turn) stream(artifactID a2a.ArtifactID, name string, chunks [][]chunkPart, pause time.Duration) bool {
	for index, chunk := range chunks {
		if index > 0 && !t.sleep(pause) {
			return false
		}
		parts := make(a2a.ContentParts, len(chunk))
		for i, part := range chunk {
			if part.data != nil {
				parts[i] = a2a.DataPart{Data: part.data}
			} else {
				parts[i] = a2a.TextPart{Text: part.text}
			}
		}
		event := &a2a.TaskArtifactUpdateEvent{
			TaskID:    t.reqCtx.TaskID,
			ContextID: t.reqCtx.ContextID,
			Artifact:  &a2a.Artifact{ID: artifactID, Name: name, Parts: parts},
			Append:    index > 0,
			LastChunk: index == len(chunks)-1,
		}
		if err := t.queue.Write(t.ctx, event); err != nil {
			return false
		}
	}
	return true
}

func (e *advisorExecutor) conversationFor(reqCtx *a2asrv.RequestContext) *conversation {
	e.mu.Lock()
	defer e.mu.Unlock()
	if c, ok := e.conversations[reqCtx.TaskID]; ok && reqCtx.StoredTask != nil {
		return c
	}
	c := &conversation{switches: e.defaults}
	e.conversations[reqCtx.TaskID] = c
	return c
}

func (e *advisorExecutor) forget(taskID a2a.TaskID) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.conversations, taskID)
}

func (e *advisorExecutor) Execute(ctx context.Context, reqCtx *a2asrv.RequestContext, queue eventqueue.Queue) error {
	t := turn{ctx: ctx, reqCtx: reqCtx, queue: queue}
	c := e.conversationFor(reqCtx)
	c.hear(reqCtx.Message)
	// ackDelayMs: nothing is written before it passes, so the send is acknowledged late.
	if !t.sleep(c.switches.ack) {
		return nil
	}
	if c.switches.scenario == "message" && reqCtx.StoredTask == nil {
		e.forget(reqCtx.TaskID)
		reply := a2a.NewMessage(a2a.MessageRoleAgent, a2a.TextPart{Text: `Direct reply without a task (scenario "message").`})
		reply.ContextID = reqCtx.ContextID
		return queue.Write(ctx, reply)
	}
	if reqCtx.StoredTask == nil {
		if err := t.status(a2a.TaskStateSubmitted, nil); err != nil {
			return err
		}
	}
	ended, err := e.turn(t, c)
	if ended || err != nil {
		e.forget(reqCtx.TaskID)
	}
	return err
}

func (e *advisorExecutor) Cancel(ctx context.Context, reqCtx *a2asrv.RequestContext, queue eventqueue.Queue) error {
	e.forget(reqCtx.TaskID)
	t := turn{ctx: ctx, reqCtx: reqCtx, queue: queue}
	return t.status(a2a.TaskStateCanceled, t.say("Canceled at the client's request.", nil))
}

// turn runs one turn; true when the task reached a terminal state.
func (e *advisorExecutor) turn(t turn, c *conversation) (bool, error) {
	message := t.reqCtx.Message
	switch c.switches.scenario {
	case "fail":
		return true, t.status(a2a.TaskStateFailed, t.say("Simulated failure: the analysis backend is unavailable.", nil))
	case "reject":
		return true, t.status(a2a.TaskStateRejected, t.say(`Rejected: this agent declines the request (scenario "reject").`, nil))
	case "never-finish":
		if err := t.status(a2a.TaskStateWorking, t.say("Working on it; this task never finishes on its own: cancel it.", nil)); err != nil {
			return false, err
		}
		<-t.ctx.Done() // the SDK cancels the turn's context once CancelTask applied CANCELED
		return true, nil
	}
	if t.reqCtx.StoredTask == nil && len(message.ReferenceTasks) > 0 && !carriesManifest(message) {
		return e.sortReferenced(t, c)
	}
	if c.manifest == nil {
		return true, t.status(a2a.TaskStateFailed, t.say("Cannot analyse the dependencies: send a data part with a package.json.", nil))
	}
	service, _ := c.manifest["name"].(string)
	if service == "" {
		service = "the service"
	}
	var questionID, question string
	state := a2a.TaskStateInputRequired
	switch {
	case c.switches.scenario == "auth-required" && !c.authorized:
		questionID, state = questionRegistryAuth, a2a.TaskStateAuthRequired
		question = fmt.Sprintf("Authorize access to the private npm registry so I can resolve %s's private packages, then send any message to continue.", service)
	case c.targetNode == 0:
		questionID = questionTargetNode
		question = fmt.Sprintf("Which Node.js version should %s target? (for example: Node.js 24)", service)
	case c.switches.scenario == "second-question" && c.packageManager == "":
		questionID = questionPackageManager
		question = fmt.Sprintf("Which package manager does %s use: npm or pnpm?", service)
	}
	if questionID != "" {
		if err := t.status(a2a.TaskStateWorking, nil); err != nil {
			return false, err
		}
		c.pending = questionID
		return false, t.status(state, t.say(question, map[string]any{"question": questionID}))
	}

	target := c.targetNode
	if err := t.status(a2a.TaskStateWorking, t.say(fmt.Sprintf("Analysing the dependencies of %s for Node.js %d.", service, target), nil)); err != nil {
		return false, err
	}
	if !t.sleep(c.switches.workDelay) {
		return true, nil
	}
	findings := analyse(c.manifest, target)
	if !t.stream(reportArtifactID, reportArtifactName, reportChunks(c.manifest, target, findings, c.packageManager), c.switches.chunkDelay) {
		return true, nil
	}
	e.mu.Lock()
	e.reports[t.reqCtx.TaskID] = findings
	e.mu.Unlock()
	counts := countByRisk(findings)
	summary := fmt.Sprintf("The compatibility report for %s on Node.js %d is ready: %d high, %d medium and %d low risk findings.",
		service, target, counts["high"], counts["medium"], counts["low"])
	return true, t.status(a2a.TaskStateCompleted, t.say(summary, nil))
}

func (e *advisorExecutor) sortReferenced(t turn, c *conversation) (bool, error) {
	var findings []finding
	found := false
	e.mu.Lock()
	for _, id := range t.reqCtx.Message.ReferenceTasks {
		if report, ok := e.reports[id]; ok {
			findings, found = report, true
		}
	}
	e.mu.Unlock()
	if !found {
		text := fmt.Sprintf("Cannot sort the fix suggestions: the referenced task %v has no compatibility report here.", t.reqCtx.Message.ReferenceTasks)
		return true, t.status(a2a.TaskStateFailed, t.say(text, nil))
	}
	if err := t.status(a2a.TaskStateWorking, t.say("Sorting the fix suggestions by risk.", nil)); err != nil {
		return false, err
	}
	if !t.sleep(c.switches.workDelay) {
		return true, nil
	}
	sorted := sortByRisk(findings)
	chunk := []chunkPart{{text: sortedSuggestionsText(sorted)}, {data: map[string]any{"findings": findingsData(sorted)}}}
	if !t.stream(sortedArtifactID, sortedArtifactName, [][]chunkPart{chunk}, 0) {
		return true, nil
	}
	return true, t.status(a2a.TaskStateCompleted, t.say(fmt.Sprintf("Sorted %d fix suggestions by risk (high first).", len(sorted)), nil))
}
