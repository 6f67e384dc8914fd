package gateway

import (
	"encoding/json"
	"fmt"
	"strings"
)

// accumulator builds the message a stream delivers, event by event, and
// checks the events come in the Messages API's order. It sits between the
// Upstream and the client, so an out-of-order event from any Upstream is
// refused before it reaches a client SDK (whose own accumulator would fail
// on it), and the usage reported is exactly what the client was told.
//
// Its memory is bounded as a non-streamed answer's is: a stream whose
// blocks and text grow beyond maxResponseBytes fails, so an upstream that
// never stops sending text (or empty blocks) cannot fill the memory before
// StreamMaxDuration.
type accumulator struct {
	msg     *Message
	open    bool // a content block is started and not yet stopped
	stopped bool // message_stop seen
	// text is the open block's text: appended to in place, since joining
	// strings would copy it all again for every delta (quadratic in a long
	// stream of small deltas).
	text  strings.Builder
	bytes int // the answer so far: its blocks and their text
}

func (a *accumulator) inBlock() bool  { return a.open }
func (a *accumulator) complete() bool { return a.stopped }

func (a *accumulator) add(ev Event) *Error {
	if a.stopped {
		return outOfOrder("%s after message_stop", ev.Type)
	}
	if a.msg == nil && ev.Type != EventMessageStart {
		return outOfOrder("%s before message_start", ev.Type)
	}
	switch ev.Type {
	case EventMessageStart:
		if a.msg != nil {
			return outOfOrder("a second message_start")
		}
		if ev.Message == nil {
			return outOfOrder("message_start without a message")
		}
		m := *ev.Message
		m.Content = nil // the skeleton's content is always empty; blocks follow
		a.msg = &m
	case EventContentBlockStart:
		if a.open || ev.Index != len(a.msg.Content) {
			return outOfOrder("content_block_start for index %d", ev.Index)
		}
		block := ContentBlock{Type: BlockText}
		if ev.Block != nil {
			block = *ev.Block
		}
		if !answerBlock(block.Type) {
			return errUnsupportedBlock(block.Type)
		}
		if err := a.grow(blockBytes + len(block.payload()) + len(block.Signature) + len(block.Data)); err != nil {
			return err
		}
		if block.Type == BlockToolUse {
			block.Input = nil // the start's input is {}: the deltas carry it
		}
		a.msg.Content = append(a.msg.Content, block)
		a.open = true
		a.text = strings.Builder{}
		a.text.WriteString(block.Text + block.Thinking)
	case EventContentBlockDelta:
		if !a.open || ev.Index != len(a.msg.Content)-1 {
			return outOfOrder("content_block_delta for index %d", ev.Index)
		}
		if err := a.grow(len(ev.Text)); err != nil {
			return err
		}
		b := &a.msg.Content[ev.Index]
		kind := ev.deltaKind()
		if kind != a.openDelta() && (kind != DeltaSignature || b.Type != BlockThinking) {
			return outOfOrder("%s in a %s block", kind, b.Type)
		}
		if kind == DeltaSignature {
			b.Signature += ev.Text
			break
		}
		a.text.WriteString(ev.Text)
		// Builder.String shares the buffer: no copy, and later writes
		// only append beyond what this string holds.
		switch kind {
		case DeltaText:
			b.Text = a.text.String()
		case DeltaThinking:
			b.Thinking = a.text.String()
		case DeltaInputJSON:
			b.Input = json.RawMessage(a.text.String())
		}
	case EventContentBlockStop:
		if !a.open || ev.Index != len(a.msg.Content)-1 {
			return outOfOrder("content_block_stop for index %d", ev.Index)
		}
		if b := &a.msg.Content[ev.Index]; b.Type == BlockToolUse {
			if len(b.Input) == 0 {
				b.Input = json.RawMessage(`{}`) // a tool without parameters
			} else if err := checkToolInput(*b); err != nil {
				return err // before the block's end reaches the client
			}
		}
		a.open = false
	case EventMessageDelta:
		if a.open {
			return outOfOrder("message_delta inside a content block")
		}
		a.msg.StopReason, a.msg.StopSequence = ev.StopReason, ev.StopSequence
		if u := ev.Usage; u != nil {
			// Cumulative counts; the input buckets only when this event
			// has them.
			a.msg.Usage.OutputTokens = u.OutputTokens
			a.msg.Usage.ReasoningTokens = max(a.msg.Usage.ReasoningTokens, u.ReasoningTokens)
			if u.AllInput() > 0 {
				a.msg.Usage.InputTokens = u.InputTokens
				a.msg.Usage.CacheCreationInputTokens = u.CacheCreationInputTokens
				a.msg.Usage.CacheReadInputTokens = u.CacheReadInputTokens
				a.msg.Usage.CacheWrite1hTokens = u.CacheWrite1hTokens
			}
		}
	case EventMessageStop:
		if a.open {
			return outOfOrder("message_stop inside a content block")
		}
		a.stopped = true
	case EventPing:
	default:
		// error events included: an Upstream returns its error instead.
		return outOfOrder("unexpected %q event", ev.Type)
	}
	return nil
}

// openDelta is the delta type the open block takes (a thinking block
// takes signature deltas too: see add).
func (a *accumulator) openDelta() string {
	switch a.msg.Content[len(a.msg.Content)-1].Type {
	case BlockToolUse:
		return DeltaInputJSON
	case BlockThinking:
		return DeltaThinking
	}
	return DeltaText
}

// blockBytes is what a content block costs besides its text: as much as
// its JSON in a non-streamed answer, which maxResponseBytes bounds too.
const blockBytes = len(`{"type":"text","text":""},`)

// grow counts n more bytes of the answer, refusing a stream whose answer
// would exceed maxResponseBytes.
func (a *accumulator) grow(n int) *Error {
	if a.bytes += n; a.bytes > maxResponseBytes {
		return errInvalidResponse(fmt.Errorf("stream's answer larger than %d bytes", maxResponseBytes))
	}
	return nil
}

func outOfOrder(format string, args ...any) *Error {
	return errInvalidResponse(fmt.Errorf("stream out of order: "+format, args...))
}
