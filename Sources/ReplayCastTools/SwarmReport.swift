// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation

/// What `replaycast swarm --report` writes and `replaycast swarm merge` reads: the swarm's
/// seed and size, which shard of it this is, and a record per broadcaster.
public struct SwarmReport: Codable, Sendable, Equatable {
    public var seed: UInt64
    /// Broadcasters in the whole swarm, every shard's together.
    public var count: Int
    /// `I/N`: the shard's number and the number of shards (`1/1` for a whole swarm).
    public var shard: String
    public var broadcasters: [SwarmRecord]

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public var failed: Int { broadcasters.filter(\.failed).count }

    /// The line per broadcaster and the totals.
    public var lines: [String] {
        broadcasters.map(\.line) + [
            "swarm: \(broadcasters.count - failed) of \(broadcasters.count) broadcasters ok, \(failed) failed, "
                + "\(broadcasters.map(\.disconnections.count).reduce(0, +)) disconnections, "
                + String(format: "%.1f MB", Double(broadcasters.map(\.bytes).reduce(0, +)) / 1e6),
        ]
    }

    /// To a file, or to standard output for `-`.
    public func write(to path: String) throws(Failure) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            let data = try encoder.encode(self)
            if path == "-" {
                FileHandle.standardOutput.write(data + Data("\n".utf8))
            } else {
                try data.write(to: URL(fileURLWithPath: path))
            }
        } catch {
            throw Failure(description: "cannot write the report \(path): \(error.localizedDescription)")
        }
    }

    public static func read(_ path: String) throws(Failure) -> SwarmReport {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw Failure(description: "\(path): cannot read it: \(error.localizedDescription)")
        }
        do { return try JSONDecoder().decode(SwarmReport.self, from: report(in: data)) } catch {
            throw Failure(description: "\(path): not a swarm report: \(error)")
        }
    }

    /// The report itself, also from a shard's whole log (`kubectl logs`): the progress lines
    /// come first, then the report from a line that is `{` to the last line that is `}`.
    private static func report(in data: Data) -> Data {
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.firstIndex(of: "{"), let last = lines.lastIndex(of: "}"), first < last else { return data }
        return Data(lines[first...last].joined(separator: "\n").utf8)
    }

    /// The shards' reports as one. They must be of one swarm (seed, count, number of
    /// shards); shards missing, or given twice, are named.
    public static func merge(_ reports: [(path: String, report: SwarmReport)]) throws(Failure) -> SwarmReport {
        guard let (firstPath, first) = reports.first else { throw Failure(description: "no reports to merge") }
        let shards = Int(first.shard.split(separator: "/").last ?? "") ?? 1
        var seen: [String: String] = [:]
        for (path, report) in reports {
            guard report.seed == first.seed, report.count == first.count, report.shard.hasSuffix("/\(shards)") else {
                throw Failure(description: "\(path) is of another swarm than \(firstPath): seed \(report.seed), "
                              + "\(report.count) broadcasters, shard \(report.shard) against seed \(first.seed), "
                              + "\(first.count), shard \(first.shard)")
            }
            if let earlier = seen[report.shard] { throw Failure(description: "shard \(report.shard) twice: \(earlier) and \(path)") }
            seen[report.shard] = path
        }
        let missing = (1...shards).map { "\($0)/\(shards)" }.filter { seen[$0] == nil }
        guard missing.isEmpty else {
            throw Failure(description: "shard\(missing.count > 1 ? "s" : "") \(missing.joined(separator: ", ")) missing")
        }
        let all = reports.flatMap(\.report.broadcasters).sorted { $0.number < $1.number }
        return SwarmReport(seed: first.seed, count: first.count, shard: "1/1", broadcasters: all)
    }
}
