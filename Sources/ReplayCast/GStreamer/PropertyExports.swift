// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer

// What RC_DEFINE_TYPE (rc_element.h) calls with a type's table, the `rc_<type>_properties()`
// each element's Swift file exports.

@_cdecl("rc_properties_install")
func propertiesInstall(_ klass: UnsafeMutablePointer<GObjectClass>, _ table: UnsafeRawPointer) {
    AnyPropertyTable.from(table).install(klass)
}

@_cdecl("rc_properties_init")
func propertiesInit(_ object: UnsafeMutableRawPointer, _ table: UnsafeRawPointer) {
    AnyPropertyTable.from(table).initialize(object)
}

@_cdecl("rc_properties_clear")
func propertiesClear(_ object: UnsafeMutableRawPointer, _ table: UnsafeRawPointer) {
    let table = AnyPropertyTable.from(table)
    table.clear(settings: object + table.settingsOffset)
}

@_cdecl("rc_properties_set")
func propertiesSet(_ object: UnsafeMutableRawPointer, _ table: UnsafeRawPointer, _ id: guint, _ value: UnsafePointer<GValue>) {
    AnyPropertyTable.from(table).set(object, id: id, value)
}

@_cdecl("rc_properties_get")
func propertiesGet(_ object: UnsafeMutableRawPointer, _ table: UnsafeRawPointer, _ id: guint, _ value: UnsafeMutablePointer<GValue>) {
    AnyPropertyTable.from(table).get(object, id: id, value)
}
