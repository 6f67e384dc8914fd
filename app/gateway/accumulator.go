package gateway

import (
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

func (a *accumulator) started() bool  { return a.msg != nil }
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
		block := ContentBlock{Type: "text"}
		if ev.Block != nil {
			block = *ev.Block
		}
		if block.Type != "text" {
			return errUnsupportedBlock(block.Type)
		}
		if err := a.grow(blockBytes + len(block.Text)); err != nil {
			return err
		}
		a.msg.Content = append(a.msg.Content, block)
		a.open = true
		a.text = strings.Builder{}
		a.text.WriteString(block.Text)
	case EventContentBlockDelta:
		if !a.open || ev.Index != len(a.msg.Content)-1 {
			return outOfOrder("content_block_delta for index %d", ev.Index)
		}
		if err := a.grow(len(ev.Text)); err != nil {
			return err
		}
		a.text.WriteString(ev.Text)
		// Builder.String shares the buffer: no copy, and later writes
		// only append beyond what this string holds.
		a.msg.Content[ev.Index].Text = a.text.String()
	case EventContentBlockStop:
		if !a.open || ev.Index != len(a.msg.Content)-1 {
			return outOfOrder("content_block_stop for index %d", ev.Index)
		}
		a.open = false
	case EventMessageDelta:
		if a.open {
			return outOfOrder("message_delta inside a content block")
		}
		a.msg.StopReason, a.msg.StopSequence = ev.StopReason, ev.StopSequence
		if ev.Usage != nil {
			// Cumulative counts; input_tokens only when this event has it.
			a.msg.Usage.OutputTokens = ev.Usage.OutputTokens
			if ev.Usage.InputTokens > 0 {
				a.msg.Usage.InputTokens = ev.Usage.InputTokens
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
