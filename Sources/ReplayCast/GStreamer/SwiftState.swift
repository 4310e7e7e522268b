// SPDX-License-Identifier: LGPL-2.1-or-later

/// An instance struct, element or pad, whose `state` holds its Swift object. Each C struct
/// declares it with one line beside its Swift class: `extension RcVolumeMeter: SwiftStateSlot {}`.
protocol SwiftStateSlot {
    var state: UnsafeMutableRawPointer! { get }
}

/// The Swift object of an element or pad. Every element and pad keeps it retained in its
/// instance struct's `state` from instance init (`retained()`) to finalize
/// (`rc_state_release`); the `@_cdecl` exports between find it with `of`.
protocol SwiftState: AnyObject {
    associatedtype Instance: SwiftStateSlot
}

extension SwiftState {
    static func of(_ instance: UnsafeMutablePointer<Instance>) -> Self {
        Unmanaged<Self>.fromOpaque(instance.pointee.state).takeUnretainedValue()
    }

    /// The object, retained once, for the instance struct's `state`.
    func retained() -> UnsafeMutableRawPointer { Unmanaged.passRetained(self).toOpaque() }
}

/// An element whose streaming state is used without a lock, under a `StreamingOwner` check.
protocol OwnedSwiftState: SwiftState {
    var owner: StreamingOwner { get }
}

extension OwnedSwiftState {
    /// Runs `body` on the element's object as the owner of its streaming state: the form of
    /// every export that touches that state (start, stop, caps, buffers, aggregation).
    static func owning<Result>(_ instance: UnsafeMutablePointer<Instance>, _ body: (Self) throws -> Result) rethrows -> Result {
        let object = of(instance)
        return try object.owner.run { try body(object) }
    }
}

/// Whatever its class, finalize releases the object here.
@_cdecl("rc_state_release")
func stateRelease(_ state: UnsafeMutableRawPointer?) {
    guard let state else { return }
    Unmanaged<AnyObject>.fromOpaque(state).release()
}
