// SPDX-License-Identifier: LGPL-2.1-or-later
/// Where everything on the emulated screen goes at one frame size, and in what colours,
/// worked out once per size. Sizes are fractions of the width, like a UI laid out in
/// points on a phone, so the screen looks the same at every resolution.
struct ScreenLayout: Sendable {
    struct Box: Sendable {
        var x0 = 0, y0 = 0, x1 = 0, y1 = 0
        var width: Int { x1 - x0 }
        var height: Int { y1 - y0 }
    }

    enum Palette {
        static let statusBackground = NV12Color(red: 10, green: 10, blue: 14)
        static let recording = NV12Color(red: 255, green: 59, blue: 48)
        static let card = NV12Color(red: 246, green: 246, blue: 250)
        static let textDark = NV12Color(red: 44, green: 44, blue: 56)
        static let textLight = NV12Color(red: 150, green: 150, blue: 165)
        static let panel = NV12Color(red: 26, green: 26, blue: 34)
        static let accent = NV12Color(red: 10, green: 132, blue: 255)
        static let track = NV12Color(red: 72, green: 72, blue: 84)
        static let dot = NV12Color(red: 255, green: 214, blue: 10)
        static let batteryFill = NV12Color(red: 52, green: 199, blue: 89)
        static let gradientTop = (58, 92, 170)
        static let gradientBottom = (132, 64, 150)
        /// The iOS system colours, for the list's icons and badges.
        static let icons: [NV12Color] = [
            (255, 59, 48), (255, 149, 0), (255, 204, 0), (52, 199, 89),
            (0, 199, 190), (0, 122, 255), (88, 86, 214), (175, 82, 222),
        ].map { NV12Color(red: $0.0, green: $0.1, blue: $0.2) }
    }

    let width: Int
    let height: Int
    /// Background colour of each row of the list area.
    let gradient: [NV12Color]

    let barcodeBottom: Int
    let status: Box
    let recordingPill: Box
    let pillCorners: CornerInsets
    let clockScale: Int
    let signalBars: [Box]
    let battery: Box
    let batteryInset: Int

    let list: Box
    let cardMargin: Int
    let cardHeight: Int
    let cardPitch: Int
    let cardCorners: CornerInsets
    let icon: Box // relative to the card's top-left corner
    let iconCorners: CornerInsets
    let textLeft: Int
    let textRight: Int
    let line1: Box // y relative to the card top; x0…x1 is the longest the line gets
    let line2: Box
    let badge: Box
    let badgeCorners: CornerInsets
    let scrollPixelsPerSecond: UInt64

    let panel: Box
    let panelRule: Int
    let livePill: Box
    let liveCorners: CornerInsets
    let labelScale: Int
    let liveLabel = GlyphRun("LIVE")
    let frameLabel = GlyphRun("FRAME ")
    let timecodeScale: Int
    let timecodeTop: Int
    let progress: Box
    let progressCorners: CornerInsets
    let knobDiameter: Int
    let knobCorners: CornerInsets
    let dotDiameter: Int
    let dotCorners: CornerInsets
    let dotFloor: Int
    let dotBounce: Int
    let dotLeft: Int
    let dotRight: Int

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        let px = { (fraction: Double) in max(1, Int((Double(width) * fraction).rounded())) }

        gradient = (0 ..< height).map { row in
            NV12Color.mix(Palette.gradientTop, Palette.gradientBottom, Double(row) / Double(max(1, height - 1)))
        }

        barcodeBottom = min(FrameBarcode.height(forWidth: width), height)
        status = Box(x0: 0, y0: barcodeBottom, x1: width, y1: min(barcodeBottom + px(0.075), height))
        let pillHeight = max(2, status.height * 62 / 100)
        clockScale = max(1, pillHeight * 55 / 100 / GlyphFont.rows)
        // Wide enough for "23:59:59" with padding on both sides.
        let pillWidth = GlyphRun("00:00:00").width(scale: clockScale) + 2 * px(0.03)
        let pillTop = status.y0 + (status.height - pillHeight) / 2
        recordingPill = Box(x0: px(0.05), y0: pillTop, x1: px(0.05) + pillWidth, y1: pillTop + pillHeight)
        pillCorners = CornerInsets(radius: pillHeight / 2)
        let statusMiddle = status.y0 + status.height / 2
        battery = Box(x0: width - px(0.05) - px(0.065), y0: statusMiddle - px(0.015),
                      x1: width - px(0.05), y1: statusMiddle + px(0.015))
        batteryInset = max(1, px(0.004))
        let barWidth = px(0.012), barGap = px(0.008), barsHeight = px(0.028)
        let barsRight = battery.x0 - px(0.03)
        signalBars = (0 ..< 4).map { index in
            let x0 = barsRight - (4 - index) * (barWidth + barGap)
            let barHeight = max(1, barsHeight * (index + 1) / 4)
            return Box(x0: x0, y0: statusMiddle + barsHeight / 2 - barHeight, x1: x0 + barWidth, y1: statusMiddle + barsHeight / 2)
        }

        let panelHeight = min(px(0.40), (height - status.y1) / 2)
        panel = Box(x0: 0, y0: height - panelHeight, x1: width, y1: height)
        list = Box(x0: 0, y0: status.y1, x1: width, y1: panel.y0)

        cardMargin = px(0.04)
        cardHeight = px(0.20)
        cardPitch = cardHeight + px(0.03)
        cardCorners = CornerInsets(radius: px(0.04))
        let iconDiameter = px(0.13), iconPadding = px(0.04)
        icon = Box(x0: cardMargin + iconPadding, y0: (cardHeight - iconDiameter) / 2,
                   x1: cardMargin + iconPadding + iconDiameter, y1: (cardHeight - iconDiameter) / 2 + iconDiameter)
        iconCorners = CornerInsets(radius: iconDiameter / 2)
        textLeft = icon.x1 + iconPadding
        textRight = width - cardMargin - iconPadding
        let line1Height = px(0.032), line2Height = px(0.024)
        line1 = Box(x0: textLeft, y0: cardHeight * 28 / 100, x1: textLeft + (textRight - textLeft) * 85 / 100,
                    y1: cardHeight * 28 / 100 + line1Height)
        line2 = Box(x0: textLeft, y0: cardHeight * 60 / 100, x1: textLeft + (textRight - textLeft) * 55 / 100,
                    y1: cardHeight * 60 / 100 + line2Height)
        let badgeHeight = px(0.05), badgeMiddle = line2.y0 + line2Height / 2
        badge = Box(x0: textRight - px(0.14), y0: badgeMiddle - badgeHeight / 2, x1: textRight,
                    y1: badgeMiddle - badgeHeight / 2 + badgeHeight)
        badgeCorners = CornerInsets(radius: badgeHeight / 2)
        scrollPixelsPerSecond = UInt64(px(0.12))

        panelRule = max(1, px(0.004))
        let liveHeight = px(0.06)
        labelScale = max(1, liveHeight * 55 / 100 / GlyphFont.rows)
        livePill = Box(x0: px(0.05), y0: panel.y0 + px(0.035),
                       x1: px(0.05) + GlyphRun("LIVE").width(scale: labelScale) + 2 * px(0.025),
                       y1: panel.y0 + px(0.035) + liveHeight)
        liveCorners = CornerInsets(radius: px(0.012))
        timecodeScale = max(1, px(0.011))
        timecodeTop = panel.y0 + px(0.11)
        let progressHeight = px(0.018), progressMiddle = panel.y0 + px(0.234)
        progress = Box(x0: px(0.06), y0: progressMiddle - progressHeight / 2,
                       x1: width - px(0.06), y1: progressMiddle - progressHeight / 2 + progressHeight)
        progressCorners = CornerInsets(radius: progressHeight / 2)
        knobDiameter = px(0.04)
        knobCorners = CornerInsets(radius: knobDiameter / 2)
        dotDiameter = px(0.05)
        dotCorners = CornerInsets(radius: dotDiameter / 2)
        dotFloor = panel.y0 + px(0.385)
        dotBounce = px(0.07)
        dotLeft = px(0.06)
        dotRight = width - px(0.06) - dotDiameter
    }
}
