// SPDX-License-Identifier: LGPL-2.1-or-later
import HLSPackaging
import Testing

struct DeliveryDirectivesTests {
    @Test func directivesComeFromTheQueryAndMalformedOnesAreRefused() throws {
        #expect(try DeliveryDirectives(query: "_HLS_msn=12&_HLS_part=3&_HLS_skip=YES") == .init(sequence: 12, part: 3, skip: true))
        #expect(try DeliveryDirectives(query: "token=abc&_HLS_skip=v2") == .init(skip: true))
        #expect(try DeliveryDirectives(query: "_HLS_skip=NO") == .init())
        #expect(throws: DeliveryDirectives.Malformed.self) { try DeliveryDirectives(query: "_HLS_msn=-1") }
        #expect(throws: DeliveryDirectives.Malformed.self) { try DeliveryDirectives(query: "_HLS_msn=1&_HLS_msn=2") }
        #expect(throws: DeliveryDirectives.Malformed.self) { try DeliveryDirectives(query: "_HLS_msn=1&_HLS_part=x") }
    }

    /// Segments 0 to 3 complete, parts 0 and 1 of segment 4 written; 0.25 s parts, so the
    /// Advance Part Limit is 12.
    @Test func requestsAreAnsweredHeldOrRefusedAsTheSpecSays() {
        let playlist = MediaPlaylistTests.playlist(segments: 4, open: 2)
        #expect(playlist.advancePartLimit == 12)
        let cases: [(DeliveryDirectives, MediaPlaylist.Answer)] = [
            (.init(), .now),
            (.init(sequence: 3), .now),
            (.init(sequence: 4), .hold),
            (.init(sequence: 4, part: 1), .now),
            (.init(sequence: 4, part: 2), .hold),
            (.init(sequence: 3, part: 9), .now),  // past segment 3's last part: part 0 of 4, which exists
            (.init(sequence: 0, part: 0), .now),
            (.init(sequence: 5, part: 0), .hold),
            (.init(sequence: 4, part: 13), .hold),
            (.init(sequence: 5), .hold),
        ]
        for (directives, answer) in cases {
            #expect(playlist.answer(to: directives) == answer, "\(directives)")
        }
        for refused in [DeliveryDirectives(part: 1), .init(sequence: 6), .init(sequence: 4, part: 15), .init(sequence: 5, part: 12)] {
            guard case .badRequest = playlist.answer(to: refused) else {
                Issue.record("\(refused): \(playlist.answer(to: refused))")
                continue
            }
        }
    }

    @Test func anEndedPlaylistAnswersEveryRequestAtOnce() {
        var playlist = MediaPlaylistTests.playlist(segments: 2, open: 1)
        playlist.end()
        #expect(playlist.answer(to: .init(sequence: 3, part: 2)) == .now)
    }
}
