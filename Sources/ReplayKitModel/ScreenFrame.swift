// SPDX-License-Identifier: LGPL-2.1-or-later
import MediaKernels

/// One frame's worth of the scene: the values that move, derived once from the frame number
/// and time, then drawn band by band.
struct ScreenFrame {
    let layout: ScreenLayout
    let barcode: (UInt64, UInt64)
    let scroll: Int
    let clock: GlyphRun
    let timecode: GlyphRun
    let frameDigits: GlyphRun
    let progressEnd: Int
    let dotX: Int
    let dotTop: Int
    let batteryEnd: Int

    /// The music's tempo (`MusicProgram`): the dot lands on every beat, the progress bar
    /// fills once per chord loop.
    static let beatNanoseconds: UInt64 = 500_000_000
    static let loopNanoseconds: UInt64 = 8_000_000_000

    init(layout: ScreenLayout, frameNumber: UInt32, time: UInt64, barcodeTimestamp: UInt64) {
        self.layout = layout
        barcode = FrameBarcode.rowBits(frameNumber: frameNumber, timestamp: barcodeTimestamp)
        scroll = Int(truncatingIfNeeded: Timebase.count(inNanoseconds: time, atRate: layout.scrollPixelsPerSecond) % (1 << 40))

        let seconds = time / Timebase.nanosecondsPerSecond
        // The status bar clock starts at 9:41, the time on Apple's product shots.
        let clockSeconds = (seconds + 9 * 3600 + 41 * 60) % 86400
        var clock = GlyphRun()
        clock.append(clockSeconds / 3600, digits: 1)
        clock.append(GlyphFont.colon)
        clock.append(clockSeconds / 60 % 60, digits: 2)
        clock.append(GlyphFont.colon)
        clock.append(clockSeconds % 60, digits: 2)
        self.clock = clock

        var timecode = GlyphRun()
        timecode.append(seconds / 3600 % 100, digits: 2)
        timecode.append(GlyphFont.colon)
        timecode.append(seconds / 60 % 60, digits: 2)
        timecode.append(GlyphFont.colon)
        timecode.append(seconds % 60, digits: 2)
        timecode.append(GlyphFont.period)
        timecode.append(Timebase.milliseconds(time) % 1000, digits: 3)
        self.timecode = timecode

        var frameDigits = layout.frameLabel
        frameDigits.append(UInt64(frameNumber), digits: 7)
        self.frameDigits = frameDigits

        let progress = layout.progress
        progressEnd = progress.x0 + Int(Double(time % Self.loopNanoseconds) / Double(Self.loopNanoseconds) * Double(progress.width))

        // Across and back every 4 s; up and down once per beat, touching the floor on it.
        let sweep = Double(time % 4_000_000_000) / 4_000_000_000
        let across = sweep < 0.5 ? sweep * 2 : 2 - sweep * 2
        dotX = layout.dotLeft + Int(across * Double(max(0, layout.dotRight - layout.dotLeft)))
        let beat = Double(time % Self.beatNanoseconds) / Double(Self.beatNanoseconds)
        dotTop = layout.dotFloor - layout.dotDiameter - Int(4 * beat * (1 - beat) * Double(layout.dotBounce))

        // Drains by half over ten minutes, then starts full again.
        let charge = 1 - 0.5 * Double(seconds % 600) / 600
        let inner = layout.battery.width - 2 * layout.batteryInset
        batteryEnd = layout.battery.x0 + layout.batteryInset + Int(charge * Double(inner))
    }

    func draw(on canvas: NV12Canvas) {
        FrameBarcode.draw(barcode, on: canvas.clipped(top: 0, bottom: layout.barcodeBottom))
        drawStatusBar(on: canvas.clipped(top: layout.status.y0, bottom: layout.status.y1))
        drawList(on: canvas.clipped(top: layout.list.y0, bottom: layout.list.y1))
        drawPanel(on: canvas.clipped(top: layout.panel.y0, bottom: layout.panel.y1))
    }

    private func drawStatusBar(on canvas: NV12Canvas) {
        guard canvas.top < canvas.bottom else { return }
        let status = layout.status
        canvas.fillRect(x0: 0, y0: status.y0, x1: layout.width, y1: status.y1, ScreenLayout.Palette.statusBackground)
        let pill = layout.recordingPill
        canvas.fillRounded(x0: pill.x0, y0: pill.y0, x1: pill.x1, y1: pill.y1, layout.pillCorners, ScreenLayout.Palette.recording)
        let scale = layout.clockScale
        canvas.text(clock, x: pill.x0 + (pill.width - clock.width(scale: scale)) / 2,
                    y: pill.y0 + (pill.height - GlyphFont.rows * scale) / 2, scale: scale, .white)
        for bar in layout.signalBars { canvas.fillRect(x0: bar.x0, y0: bar.y0, x1: bar.x1, y1: bar.y1, .white) }
        let battery = layout.battery, inset = layout.batteryInset
        canvas.fillRect(x0: battery.x0, y0: battery.y0, x1: battery.x1, y1: battery.y1, .white)
        canvas.fillRect(x0: battery.x0 + inset, y0: battery.y0 + inset, x1: battery.x1 - inset, y1: battery.y1 - inset,
                        ScreenLayout.Palette.statusBackground)
        canvas.fillRect(x0: battery.x0 + 2 * inset, y0: battery.y0 + 2 * inset, x1: batteryEnd - inset,
                        y1: battery.y1 - 2 * inset, ScreenLayout.Palette.batteryFill)
    }

    private func drawList(on canvas: NV12Canvas) {
        guard canvas.top < canvas.bottom else { return }
        layout.gradient.withUnsafeBufferPointer { gradient in
            for y in canvas.top ..< canvas.bottom { canvas.span(y, 0, layout.width, gradient[y]) }
        }
        let pitch = layout.cardPitch
        let firstCard = (canvas.top - layout.list.y0 + scroll) / pitch
        let lastCard = (canvas.bottom - 1 - layout.list.y0 + scroll) / pitch
        for card in firstCard ... lastCard {
            drawCard(card, top: layout.list.y0 + card * pitch - scroll, on: canvas)
        }
    }

    private func drawCard(_ card: Int, top: Int, on canvas: NV12Canvas) {
        guard top < canvas.bottom, top + layout.cardHeight > canvas.top else { return }
        let hash = Scramble.mix(UInt64(card))
        canvas.fillRounded(x0: layout.cardMargin, y0: top, x1: layout.width - layout.cardMargin,
                           y1: top + layout.cardHeight, layout.cardCorners, ScreenLayout.Palette.card)
        let icons = ScreenLayout.Palette.icons
        let icon = layout.icon
        canvas.fillRounded(x0: icon.x0, y0: top + icon.y0, x1: icon.x1, y1: top + icon.y1, layout.iconCorners,
                           icons[card % icons.count])
        // Line lengths between 45 % and 100 % of their longest, as text would vary.
        let line1 = layout.line1, line2 = layout.line2
        let length1 = line1.width * (45 + Int(hash & 0x3F) % 56) / 100
        let length2 = line2.width * (45 + Int(hash >> 8 & 0x3F) % 56) / 100
        canvas.fillRect(x0: line1.x0, y0: top + line1.y0, x1: line1.x0 + length1, y1: top + line1.y1,
                        ScreenLayout.Palette.textDark)
        canvas.fillRect(x0: line2.x0, y0: top + line2.y0, x1: line2.x0 + length2, y1: top + line2.y1,
                        ScreenLayout.Palette.textLight)
        if hash >> 16 & 3 == 0 {
            let badge = layout.badge
            canvas.fillRounded(x0: badge.x0, y0: top + badge.y0, x1: badge.x1, y1: top + badge.y1, layout.badgeCorners,
                               icons[Int(hash >> 20) % icons.count])
        }
    }

    private func drawPanel(on canvas: NV12Canvas) {
        guard canvas.top < canvas.bottom else { return }
        let panel = layout.panel, width = layout.width
        canvas.fillRect(x0: 0, y0: panel.y0, x1: width, y1: panel.y1, ScreenLayout.Palette.panel)
        canvas.fillRect(x0: 0, y0: panel.y0, x1: width, y1: panel.y0 + layout.panelRule, ScreenLayout.Palette.accent)

        let live = layout.livePill, scale = layout.labelScale
        canvas.fillRounded(x0: live.x0, y0: live.y0, x1: live.x1, y1: live.y1,
                           layout.liveCorners, ScreenLayout.Palette.recording)
        let labelTop = live.y0 + (live.height - GlyphFont.rows * scale) / 2
        canvas.text(layout.liveLabel, x: live.x0 + (live.width - layout.liveLabel.width(scale: scale)) / 2,
                    y: labelTop, scale: scale, .white)
        canvas.text(frameDigits, x: width - live.x0 - frameDigits.width(scale: scale), y: labelTop, scale: scale,
                    ScreenLayout.Palette.textLight)

        let timecodeScale = layout.timecodeScale
        canvas.text(timecode, x: (width - timecode.width(scale: timecodeScale)) / 2, y: layout.timecodeTop,
                    scale: timecodeScale, .white)

        let progress = layout.progress
        canvas.fillRounded(x0: progress.x0, y0: progress.y0, x1: progress.x1, y1: progress.y1,
                           layout.progressCorners, ScreenLayout.Palette.track)
        canvas.fillRounded(x0: progress.x0, y0: progress.y0, x1: max(progressEnd, progress.x0 + progress.height),
                           y1: progress.y1, layout.progressCorners, ScreenLayout.Palette.accent)
        let knob = layout.knobDiameter, knobTop = progress.y0 + progress.height / 2 - knob / 2
        canvas.fillRounded(x0: progressEnd - knob / 2, y0: knobTop, x1: progressEnd - knob / 2 + knob, y1: knobTop + knob,
                           layout.knobCorners, .white)

        canvas.fillRect(x0: layout.dotLeft, y0: layout.dotFloor, x1: layout.dotRight + layout.dotDiameter,
                        y1: layout.dotFloor + layout.panelRule, ScreenLayout.Palette.track)
        canvas.fillRounded(x0: dotX, y0: dotTop, x1: dotX + layout.dotDiameter, y1: dotTop + layout.dotDiameter,
                           layout.dotCorners, ScreenLayout.Palette.dot)
    }
}
