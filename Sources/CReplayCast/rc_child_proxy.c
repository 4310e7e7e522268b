/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* GstChildProxy over an element's sink pads, so launch lines and applications reach pad
 * properties as "name.sink_1::xpos=…" or "app::volume=0.5", as with compositor and
 * audiomixer. Children are found by name through the interface's default lookup. */
#include "include/rc_gst.h"

static GObject *child_by_index(GstChildProxy *proxy, guint index) {
  GST_OBJECT_LOCK(proxy);
  GObject *child = g_list_nth_data(GST_ELEMENT(proxy)->sinkpads, index);
  if (child)
    gst_object_ref(child);
  GST_OBJECT_UNLOCK(proxy);
  return child;
}

static guint children_count(GstChildProxy *proxy) {
  GST_OBJECT_LOCK(proxy);
  guint count = GST_ELEMENT(proxy)->numsinkpads;
  GST_OBJECT_UNLOCK(proxy);
  return count;
}

static void child_proxy_init(gpointer g_iface, gpointer iface_data) {
  GstChildProxyInterface *iface = g_iface;
  iface->get_child_by_index = child_by_index;
  iface->get_children_count = children_count;
}

void rc_sink_pads_child_proxy(GType type) {
  static const GInterfaceInfo info = { child_proxy_init, NULL, NULL };
  g_type_add_interface_static(type, GST_TYPE_CHILD_PROXY, &info);
}
