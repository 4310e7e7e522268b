// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation

/// A bad uplink between a broadcast and its servers, made by the kernel: in a network
/// namespace of its own (a private loopback that nothing else on the machine shares), the
/// packets sent to the chosen ports of 127.0.0.1 go through an HTB class (`tc`, sch_htb)
/// with the schedule's rate and a drop-tail queue of `queueTime` at that rate; everything
/// else, the servers' answers and acknowledgements included, passes unshaped. TCP and SRT
/// then meet what they meet on a real bottleneck: a queue, then loss. `down` leaves the
/// queue no room: everything sent is lost, as on a link that went away.
public final class ShapedUplink {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Set in the environment of the program run again inside the namespace.
    public static let namespaceVariable = "REPLAYCAST_UPLINK_NAMESPACE"
    /// How long the link's queue holds at its rate before it drops.
    public static let queueTime = 0.25
    static let unlimited: UInt64 = 10_000_000_000

    public let ports: [Int]
    private var rate: UInt64?

    /// Whether this process runs in the namespace `runInPrivateNetwork` made.
    public static var isInPrivateNetwork: Bool { ProcessInfo.processInfo.environment[namespaceVariable] != nil }

    /// Runs this program again, with the same arguments, in a new network namespace: as root
    /// directly, otherwise inside a new user namespace that maps the user to root there (where
    /// the kernel allows unprivileged user namespaces). Returns only when that fails.
    public static func runInPrivateNetwork() -> Failure {
        let program = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let namespaces = getuid() == 0 ? ["--net"] : ["--user", "--map-root-user", "--net"]
        let arguments = ["unshare"] + namespaces + ["--", program] + CommandLine.arguments.dropFirst()
        setenv(namespaceVariable, "1", 1)
        let argv = arguments.map { strdup($0) } + [nil]
        execvp("unshare", argv)
        let reason = String(cString: strerror(errno))
        return Failure(description: "cannot run unshare (util-linux) to make a private network: \(reason)")
    }

    /// Brings the private loopback up and puts the shaped class in front of `ports`, with no
    /// limit until the first change.
    public init(ports: [Int]) throws(Failure) {
        self.ports = ports
        // Packets of a real path's size, one segment each: the loopback's 64 kB segments would
        // each be larger than a slow link's whole queue.
        try Self.run(["ip", "link", "set", "lo", "up", "mtu", "1500", "gso_max_size", "1500", "gso_max_segs", "1"])
        try Self.run(["tc", "qdisc", "add", "dev", "lo", "root", "handle", "1:", "htb", "default", "1"])
        try Self.run(["tc", "class", "add", "dev", "lo", "parent", "1:", "classid", "1:1", "htb", "rate", "\(Self.unlimited)bit"])
        try Self.run(["tc", "class", "add", "dev", "lo", "parent", "1:", "classid", "1:10", "htb", "rate", "\(Self.unlimited)bit"])
        try Self.run(["tc", "qdisc", "add", "dev", "lo", "parent", "1:10", "handle", "10:", "bfifo", "limit", "\(Self.queueBytes(nil))"])
        for port in ports {
            try Self.run(["tc", "filter", "add", "dev", "lo", "parent", "1:", "protocol", "ip", "prio", "1", "u32",
                          "match", "ip", "dst", "127.0.0.1/32", "match", "ip", "dport", "\(port)", "0xffff", "flowid", "1:10"])
        }
    }

    public func apply(_ change: UplinkSchedule.Change) throws(Failure) {
        let bits: UInt64
        let queue: Int
        switch change {
        case .rate(let value):
            rate = value
            (bits, queue) = (value, Self.queueBytes(value))
        case .up:
            (bits, queue) = (rate ?? Self.unlimited, Self.queueBytes(rate))
        case .down:
            // The rate stays: HTB would carry a slow rate's debt for each packet (up to a
            // minute of sending time) past `up`. A queue of 0 bytes drops everything.
            (bits, queue) = (rate ?? Self.unlimited, 0)
        case .delay, .stall, .resume:
            // The relay's (UplinkRelay): the kernel's link has neither.
            return
        }
        try Self.run(["tc", "class", "change", "dev", "lo", "parent", "1:", "classid", "1:10", "htb", "rate", "\(bits)bit", "ceil", "\(bits)bit"])
        try Self.run(["tc", "qdisc", "change", "dev", "lo", "parent", "1:10", "handle", "10:", "bfifo", "limit", "\(queue)"])
    }

    /// What went into the link so far: bytes and packets sent on, packets dropped.
    public func counters() -> (bytes: UInt64, packets: UInt64, dropped: UInt64)? {
        guard let text = try? Self.run(["tc", "-s", "class", "show", "dev", "lo", "classid", "1:10"]),
              let line = text.split(separator: "\n").first(where: { $0.contains("Sent ") }) else { return nil }
        let words = line.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "(" || $0 == ")" })
        func after(_ word: String) -> UInt64? { words.firstIndex(of: Substring(word)).flatMap { UInt64(words[$0 + 1]) } }
        guard let bytes = after("Sent"), let dropped = after("dropped") else { return nil }
        return (bytes, words.firstIndex(of: "bytes").flatMap { UInt64(words[$0 + 1]) } ?? 0, dropped)
    }

    /// A quarter of a second at the rate; at least one full-size packet's worth, and 4 MB
    /// without a limit.
    static func queueBytes(_ rate: UInt64?) -> Int {
        guard let rate else { return 4_000_000 }
        return max(3028, Int(Double(rate) / 8 * queueTime))
    }

    @discardableResult
    static func run(_ arguments: [String]) throws(Failure) -> String {
        let process: ChildProcess
        do { process = try ChildProcess(arguments, capturing: true) } catch { throw Failure(description: error.description) }
        let text = process.readOutput()
        let status = process.exitStatus(blocking: true)
        guard status == 0 else {
            let missing = status == 127 ? " (not installed: Debian's iproute2 has ip and tc)" : ""
            throw Failure(description: "\(arguments.joined(separator: " ")) failed\(missing): "
                          + text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return text
    }
}
