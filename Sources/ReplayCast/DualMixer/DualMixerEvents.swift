// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast

/// dualmixer's overrides of the base class's event and state-change handlers: what the inputs'
/// flow control and timelines need from each, around a call to the base class's own handler.
extension DualMixer {
    /// Upstream thread of `pad`: caps, segments and gaps are taken here, in order with that
    /// pad's buffers (the base class would see them later, on the aggregator's thread).
    func sinkEventPreQueue(_ element: UnsafeMutablePointer<RcDualMixer>, _ pad: UnsafeMutablePointer<RcDualMixerPad>,
                           _ event: UnsafeMutablePointer<GstEvent>) -> GstFlowReturn {
        let index = Int(pad.pointee.index)
        switch rc_event_type(event) {
        case GST_EVENT_CAPS:
            var caps: UnsafeMutablePointer<GstCaps>?
            gst_event_parse_caps(event, &caps)
            guard let caps, setInputCaps(element, pad: index, caps: caps) else {
                gst_event_unref(event)
                return GST_FLOW_NOT_NEGOTIATED
            }
        case GST_EVENT_FLUSH_START:
            flow.setFlushing(true, pad: index)
        case GST_EVENT_FLUSH_STOP:
            flow.setFlushing(false, pad: index)
        case GST_EVENT_SEGMENT:
            gst_event_copy_segment(event, &inputs[index].segment)
        case GST_EVENT_GAP:
            if flow.waitUntilRestarted(pad: index) { inputGap(element, pad: index, event) }
        default:
            break
        }
        return rc_dualmixer_parent_sink_event_pre_queue(element, pad, event)
    }

    /// The base class forwards a seek upstream, where the sources flush and start again, each
    /// in its own time; it flushes the mixer (`flush`) once every pad is done flushing, and
    /// until then an input that is done first waits.
    func srcEvent(_ element: UnsafeMutablePointer<RcDualMixer>, _ event: UnsafeMutablePointer<GstEvent>) -> Bool {
        guard let seek = Self.flushingSeek(event) else { return rc_dualmixer_parent_src_event(element, event) != 0 }
        DebugLog.dualmixer.debug(element, "flushing seek \(seek): inputs wait until the mixer has flushed")
        flow.setRestarting(true)
        let handled = rc_dualmixer_parent_src_event(element, event) != 0
        if handled {
            endUnlinkedPads(element, seek: seek)
        } else {
            DebugLog.dualmixer.debug(element, "flushing seek \(seek) failed upstream: the mixer goes on unflushed")
        }
        // Not every pad flushed (a source refused the seek): the base class will not flush the
        // mixer, so nothing must wait for it.
        flow.setRestarting(false)
        return handled
    }

    /// The seek's sequence number if `event` is a flushing seek.
    private static func flushingSeek(_ event: UnsafeMutablePointer<GstEvent>) -> guint32? {
        guard rc_event_type(event) == GST_EVENT_SEEK else { return nil }
        var flags = GstSeekFlags(rawValue: 0)
        gst_event_parse_seek(event, nil, nil, &flags, nil, nil, nil, nil)
        return flags.rawValue & GST_SEEK_FLAG_FLUSH.rawValue != 0 ? gst_event_get_seqnum(event) : nil
    }

    /// A sink pad nobody links never delivers data nor EOS, and a non-live aggregator would
    /// wait for it forever: at the start such a pad is told it has ended (the mixer then
    /// carries on without it; see docs/dualmixer.md).
    func changeState(_ element: UnsafeMutablePointer<RcDualMixer>, _ transition: GstStateChange) -> GstStateChangeReturn {
        switch transition {
        case GST_STATE_CHANGE_PAUSED_TO_READY: flow.endWaits()
        case GST_STATE_CHANGE_READY_TO_PAUSED: flow.reset()
        default: break
        }
        let result = rc_dualmixer_parent_change_state(element, transition)
        if transition == GST_STATE_CHANGE_READY_TO_PAUSED && result != GST_STATE_CHANGE_FAILURE {
            endUnlinkedPads(element, seek: nil)
        }
        return result
    }

    /// Tells each unlinked sink pad that its stream has ended, as its upstream would; after
    /// the flushing seek numbered `seek`, first that it flushed for it, since the seek could
    /// not reach its upstream and the base class waits for every pad's FLUSH_STOP.
    private func endUnlinkedPads(_ element: UnsafeMutablePointer<RcDualMixer>, seek: guint32?) {
        for (index, input) in inputs.enumerated() {
            let sinkPad = UnsafeMutablePointer<GstPad>(OpaquePointer(pad(element, index)))
            guard gst_pad_is_linked(sinkPad) == 0 else { continue }
            if let seek {
                DebugLog.dualmixer.debug(element, "\(input.name): not linked: flushed for seek \(seek) and ended")
                let start = gst_event_new_flush_start(), stop = gst_event_new_flush_stop(1)
                gst_event_set_seqnum(start, seek)
                gst_event_set_seqnum(stop, seek)
                _ = gst_pad_send_event(sinkPad, start)
                _ = gst_pad_send_event(sinkPad, stop)
            } else {
                DebugLog.dualmixer.debug(element, "\(input.name): not linked: ended")
                _ = gst_pad_send_event(sinkPad, gst_event_new_stream_start("dualmixer-unlinked"))
            }
            var segment = GstSegment()
            gst_segment_init(&segment, GST_FORMAT_TIME)
            _ = gst_pad_send_event(sinkPad, gst_event_new_segment(&segment))
            _ = gst_pad_send_event(sinkPad, gst_event_new_eos())
        }
    }
}

@_cdecl("rc_dualmixer_sink_event_pre_queue")
func dualMixerSinkEventPreQueue(_ element: UnsafeMutablePointer<RcDualMixer>, _ pad: UnsafeMutablePointer<RcDualMixerPad>,
                                _ event: UnsafeMutablePointer<GstEvent>) -> GstFlowReturn {
    DualMixer.of(element).sinkEventPreQueue(element, pad, event)
}

@_cdecl("rc_dualmixer_src_event")
func dualMixerSrcEvent(_ element: UnsafeMutablePointer<RcDualMixer>, _ event: UnsafeMutablePointer<GstEvent>) -> gboolean {
    DualMixer.of(element).srcEvent(element, event) ? 1 : 0
}

@_cdecl("rc_dualmixer_change_state")
func dualMixerChangeState(_ element: UnsafeMutablePointer<RcDualMixer>, _ transition: GstStateChange) -> GstStateChangeReturn {
    DualMixer.of(element).changeState(element, transition)
}
