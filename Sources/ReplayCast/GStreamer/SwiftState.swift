// SPDX-License-Identifier: LGPL-2.1-or-later

/// Every element and pad keeps its Swift object retained in its instance struct's `state`
/// from instance init to finalize; whatever its class, finalize releases it here.
@_cdecl("rc_state_release")
func stateRelease(_ state: UnsafeMutableRawPointer?) {
    guard let state else { return }
    Unmanaged<AnyObject>.fromOpaque(state).release()
}
