/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef RC_PROPERTIES_H
#define RC_PROPERTIES_H

#include <gst/gst.h>

/* Declarative properties: one table per element (or pad type) installs the param specs,
 * sets the defaults and does set/get under the object lock, so each property is written
 * once, in its table row. Values live in a settings struct, each at its row's offset;
 * property ids are the row's index + 1 (an element's own extra properties come after). */

typedef enum {
  RC_PROPERTY_BOOLEAN,
  RC_PROPERTY_INT,
  RC_PROPERTY_UINT,
  RC_PROPERTY_UINT64,
  RC_PROPERTY_DOUBLE,
  RC_PROPERTY_ENUM,
  RC_PROPERTY_STRING,
} RcPropertyKind;

/* In a row's flags: the property reports a value the element keeps (a state, a count) and
 * cannot be set; the element writes it with rc_properties_publish. */
#define RC_READ_ONLY (1 << (G_PARAM_USER_SHIFT + 16))

typedef struct {
  const gchar *name, *nick, *blurb;
  RcPropertyKind kind;
  gsize offset;
  GParamFlags flags; /* besides G_PARAM_READWRITE (G_PARAM_READABLE with RC_READ_ONLY) | G_PARAM_STATIC_STRINGS */
  GType (*enum_type)(void);
  union {
    struct { gint64 minimum, maximum, initial; } integer; /* BOOLEAN, INT, UINT, ENUM */
    struct { guint64 minimum, maximum, initial; } unsigned64;
    struct { gdouble minimum, maximum, initial; } real;
    const gchar *text;
  } value;
} RcProperty;

/* The offset of `field` in `Settings`; does not compile unless the field is a `Type`. */
#define RC_FIELD(Settings, field, Type) \
  (G_STRUCT_OFFSET(Settings, field) + \
   0 * sizeof(char[__builtin_types_compatible_p(__typeof__(((Settings *)0)->field), Type) ? 1 : -1]))
/* An enum field is read and written as a gint (GValue's enum storage). C gives an enum the
 * type of an integer, so the check is that it is one of gint's size: a pointer, a double
 * or a 64-bit field does not compile. */
#define RC_ENUM_FIELD(Settings, field) \
  (G_STRUCT_OFFSET(Settings, field) + \
   0 * sizeof(char[__builtin_classify_type(((Settings *)0)->field) == 1 && \
                   sizeof(((Settings *)0)->field) == sizeof(gint) ? 1 : -1]))

#define RC_BOOLEAN(S, field, name, nick, blurb, initial, flags) \
  { name, nick, blurb, RC_PROPERTY_BOOLEAN, RC_FIELD(S, field, gboolean), flags, NULL, .value.integer = { FALSE, TRUE, initial } }
#define RC_INT(S, field, name, nick, blurb, minimum, maximum, initial, flags) \
  { name, nick, blurb, RC_PROPERTY_INT, RC_FIELD(S, field, gint), flags, NULL, .value.integer = { minimum, maximum, initial } }
#define RC_UINT(S, field, name, nick, blurb, minimum, maximum, initial, flags) \
  { name, nick, blurb, RC_PROPERTY_UINT, RC_FIELD(S, field, guint), flags, NULL, .value.integer = { minimum, maximum, initial } }
#define RC_UINT64(S, field, name, nick, blurb, minimum, maximum, initial, flags) \
  { name, nick, blurb, RC_PROPERTY_UINT64, RC_FIELD(S, field, guint64), flags, NULL, .value.unsigned64 = { minimum, maximum, initial } }
#define RC_DOUBLE(S, field, name, nick, blurb, minimum, maximum, initial, flags) \
  { name, nick, blurb, RC_PROPERTY_DOUBLE, RC_FIELD(S, field, gdouble), flags, NULL, .value.real = { minimum, maximum, initial } }
#define RC_ENUM(S, field, name, nick, blurb, type, initial, flags) \
  { name, nick, blurb, RC_PROPERTY_ENUM, RC_ENUM_FIELD(S, field), flags, type, .value.integer = { 0, 0, initial } }
#define RC_STRING(S, field, name, nick, blurb, initial, flags) \
  { name, nick, blurb, RC_PROPERTY_STRING, RC_FIELD(S, field, gchar *), flags, NULL, .value.text = initial }

void rc_properties_install(GObjectClass *klass, const RcProperty *table, guint count);
/* Every field at its default; strings are copies, freed by rc_properties_clear. */
void rc_properties_init(gpointer settings, const RcProperty *table, guint count);
void rc_properties_clear(gpointer settings, const RcProperty *table, guint count);
/* FALSE when `id` is not the table's. Under `object`'s lock. */
gboolean rc_properties_set(gpointer object, gpointer settings, const RcProperty *table, guint count, guint id,
    const GValue *value);
gboolean rc_properties_get(gpointer object, gconstpointer settings, const RcProperty *table, guint count, guint id,
    GValue *value);
/* Writes a read-only row's value (an int-sized kind: BOOLEAN, INT, UINT, ENUM) under
 * `object`'s lock; FALSE if it was already `value`. */
gboolean rc_properties_publish(gpointer object, gpointer settings, const RcProperty *table, guint count,
    const gchar *name, gint value);
/* A copy of `settings` taken under `object`'s lock (strings copied too: rc_properties_clear). */
void rc_properties_copy(gpointer object, gconstpointer settings, gsize size, const RcProperty *table, guint count,
    gpointer out);

/* An enum type registered once, by name (the first call registers it). */
GType rc_enum_type(const gchar *name, const GEnumValue *values);

/* set_property/get_property for a type whose properties are all in `table`, stored in the
 * instance's `field`. */
#define RC_PROPERTY_ACCESSORS(prefix, Type, field, table)                                                      \
  static void prefix##set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec) {          \
    if (!rc_properties_set(object, &((Type *)object)->field, table, G_N_ELEMENTS(table), id, value))             \
      G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);                                                      \
  }                                                                                                              \
  RC_PROPERTY_GETTER(prefix, Type, field, table)

#define RC_PROPERTY_GETTER(prefix, Type, field, table)                                                         \
  static void prefix##get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {                \
    if (!rc_properties_get(object, &((Type *)object)->field, table, G_N_ELEMENTS(table), id, value))             \
      G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);                                                      \
  }

#endif
