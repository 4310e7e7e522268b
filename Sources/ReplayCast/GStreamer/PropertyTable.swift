// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast

/// The properties of one element or pad type, declared as rows. The table installs their
/// param specs, puts each field of the instance's settings struct at its default, and sets,
/// gets, copies and frees values, under the object lock. Property ids are row index + 1.
///
/// C reaches a type's table through its `rc_<type>_properties` export, which RC_DEFINE_TYPE
/// calls from class_init, instance init, finalize, set_property and get_property
/// (PropertyExports.swift); this class is what those calls see, without the settings type.
class AnyPropertyTable: @unchecked Sendable {
    typealias Hook<Result> = @Sendable (UnsafeMutableRawPointer, PropertySpec, UnsafePointer<GValue>) -> Result

    let specs: [PropertySpec]
    /// Where the settings struct is in the instance.
    let settingsOffset: Int
    /// Where the strings are in the settings struct: what a copy duplicates and a clear frees.
    let stringOffsets: [Int]
    private let accept: Hook<Bool>?
    private let didSet: Hook<Void>?

    init(specs: [PropertySpec], settingsOffset: Int, accept: Hook<Bool>?, didSet: Hook<Void>?) {
        (self.specs, self.settingsOffset, self.accept, self.didSet) = (specs, settingsOffset, accept, didSet)
        stringOffsets = specs.compactMap { if case .string = $0.value { $0.offset } else { nil } }
    }

    /// For C: the table lives as long as the process (each is a `static let`).
    var opaque: UnsafeRawPointer { UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()) }

    static func from(_ opaque: UnsafeRawPointer) -> AnyPropertyTable {
        Unmanaged<AnyPropertyTable>.fromOpaque(opaque).takeUnretainedValue()
    }

    func install(_ klass: UnsafeMutablePointer<GObjectClass>) {
        for (index, spec) in specs.enumerated() {
            g_object_class_install_property(klass, guint(index + 1), spec.paramSpec())
            if case .enumeration(let type, _) = spec.value {
                gst_type_mark_as_plugin_api(type.type, GstPluginAPIFlags(rawValue: 0))
            }
        }
    }

    /// Every field at its default (strings are copies, freed by `clear`).
    func initialize(_ object: UnsafeMutableRawPointer) {
        let settings = object + settingsOffset
        for spec in specs {
            guard let offset = spec.offset else { continue }
            let at = settings + offset
            switch spec.value {
            case .boolean(let initial): at.storeBytes(of: gboolean(initial ? 1 : 0), as: gboolean.self)
            case .int(_, let initial), .enumeration(_, let initial): at.storeBytes(of: initial, as: Int32.self)
            case .uint(_, let initial): at.storeBytes(of: initial, as: UInt32.self)
            case .uint64(_, let initial): at.storeBytes(of: initial, as: UInt64.self)
            case .double(_, let initial): at.storeBytes(of: initial, as: Double.self)
            case .string(let initial): at.storeBytes(of: initial.map { g_strdup($0) }, as: UnsafeMutablePointer<gchar>?.self)
            case .structure: break
            }
        }
    }

    /// Frees the strings of a settings struct: an instance's at finalize, or a copy's.
    func clear(settings: UnsafeMutableRawPointer) {
        for offset in stringOffsets {
            let at = settings + offset
            g_free(at.load(as: UnsafeMutableRawPointer?.self))
            at.storeBytes(of: nil, as: UnsafeMutableRawPointer?.self)
        }
    }

    func set(_ object: UnsafeMutableRawPointer, id: guint, _ value: UnsafePointer<GValue>) {
        // GLib calls with the ids the class installed, never another.
        guard id >= 1, id <= specs.count else { return }
        let spec = specs[Int(id) - 1]
        guard accept?(object, spec, value) ?? true else { return }
        switch spec.storage {
        case .object(_, let set): set(object, g_value_get_boolean(value) != 0)
        // Read-only: GLib never sets it.
        case .made: break
        case .field(let offset):
            let at = object + settingsOffset + offset
            withObjectLock(object) {
                switch spec.value {
                case .boolean: at.storeBytes(of: g_value_get_boolean(value), as: gboolean.self)
                case .int: at.storeBytes(of: g_value_get_int(value), as: gint.self)
                case .uint: at.storeBytes(of: g_value_get_uint(value), as: guint.self)
                case .uint64: at.storeBytes(of: g_value_get_uint64(value), as: guint64.self)
                case .double: at.storeBytes(of: g_value_get_double(value), as: gdouble.self)
                case .enumeration: at.storeBytes(of: g_value_get_enum(value), as: gint.self)
                case .string:
                    g_free(at.load(as: UnsafeMutableRawPointer?.self))
                    at.storeBytes(of: g_value_dup_string(value), as: UnsafeMutablePointer<gchar>?.self)
                case .structure: break
                }
            }
        }
        didSet?(object, spec, value)
    }

    func get(_ object: UnsafeMutableRawPointer, id: guint, _ value: UnsafeMutablePointer<GValue>) {
        guard id >= 1, id <= specs.count else { return }
        let spec = specs[Int(id) - 1]
        switch spec.storage {
        case .object(let get, _): g_value_set_boolean(value, get(object) ? 1 : 0)
        case .made(let make): g_value_take_boxed(value, make(object))
        case .field(let offset):
            let at = object + settingsOffset + offset
            withObjectLock(object) {
                switch spec.value {
                case .boolean: g_value_set_boolean(value, at.load(as: gboolean.self))
                case .int: g_value_set_int(value, at.load(as: gint.self))
                case .uint: g_value_set_uint(value, at.load(as: guint.self))
                case .uint64: g_value_set_uint64(value, at.load(as: guint64.self))
                case .double: g_value_set_double(value, at.load(as: gdouble.self))
                case .enumeration: g_value_set_enum(value, at.load(as: gint.self))
                case .string: g_value_set_string(value, at.load(as: UnsafePointer<gchar>?.self))
                case .structure: break
                }
            }
        }
    }
}

/// The typed face of a table: rows checked against `Settings`, hooks that see the
/// instance, and copies of the settings for a streaming thread.
final class PropertyTable<Instance, Settings>: AnyPropertyTable, @unchecked Sendable {
    typealias TypedHook<Result> = @Sendable (UnsafeMutablePointer<Instance>, PropertySpec, UnsafePointer<GValue>) -> Result

    /// `accept` runs before a value is stored (false keeps the old one; the element says
    /// why), `didSet` after, outside the lock.
    init(_ settings: KeyPath<Instance, Settings>, _ rows: [PropertyRow<Settings>],
         accept: TypedHook<Bool>? = nil, didSet: TypedHook<Void>? = nil) {
        guard let offset = MemoryLayout<Instance>.offset(of: settings) else {
            preconditionFailure("the settings must be a stored field of the instance struct")
        }
        func erased<Result>(_ hook: TypedHook<Result>?) -> Hook<Result>? {
            guard let hook else { return nil }
            return { object, spec, value in hook(object.assumingMemoryBound(to: Instance.self), spec, value) }
        }
        super.init(specs: rows.map(\.spec), settingsOffset: offset, accept: erased(accept), didSet: erased(didSet))
    }

    /// `body` on a copy of the settings taken under the object lock; the copy's strings are
    /// freed after it.
    func withSettings<Result>(of object: UnsafeMutablePointer<Instance>, _ body: (Settings) throws -> Result) rethrows -> Result {
        var copy = self.copy(of: object)
        defer { withUnsafeMutableBytes(of: &copy) { clear(settings: $0.baseAddress!) } }
        return try body(copy)
    }

    /// A copy of the settings taken under the object lock, for a table without strings
    /// (nothing to free; `withSettings` otherwise).
    func settings(of object: UnsafeMutablePointer<Instance>) -> Settings {
        precondition(stringOffsets.isEmpty, "a copy with strings is taken with withSettings, which frees them")
        return copy(of: object)
    }

    private func copy(of object: UnsafeMutablePointer<Instance>) -> Settings {
        let raw = UnsafeMutableRawPointer(object)
        return withObjectLock(raw) {
            var copy = (raw + settingsOffset).load(as: Settings.self)
            withUnsafeMutableBytes(of: &copy) { bytes in
                for offset in stringOffsets {
                    let at = bytes.baseAddress! + offset
                    at.storeBytes(of: g_strdup(at.load(as: UnsafePointer<gchar>?.self)), as: UnsafeMutablePointer<gchar>?.self)
                }
            }
            return copy
        }
    }

    /// Writes a status property (`PropertyFlags.status`) the element keeps, and tells
    /// `notify::` listeners when it changed.
    func publish<Field: Equatable>(_ object: UnsafeMutablePointer<Instance>, _ field: WritableKeyPath<Settings, Field>,
                                   _ value: Field) {
        guard let offset = MemoryLayout<Settings>.offset(of: field),
              let spec = specs.first(where: { $0.offset == offset && $0.flags.contains(.status) }) else {
            preconditionFailure("publish writes a status property's field")
        }
        let raw = UnsafeMutableRawPointer(object)
        let at = raw + settingsOffset + offset
        let changed = withObjectLock(raw) {
            let changed = at.load(as: Field.self) != value
            at.storeBytes(of: value, as: Field.self)
            return changed
        }
        if changed { g_object_notify(raw.assumingMemoryBound(to: GObject.self), spec.name) }
    }
}
