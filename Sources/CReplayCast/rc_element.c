/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "include/rc_element.h"

GstStateChangeReturn rc_lifecycle_change_state(GstElement *element, GstStateChange transition,
    GstElementClass *parent_class, const RcLifecycle *lifecycle) {
  switch (transition) {
    case GST_STATE_CHANGE_NULL_TO_READY:
      if (lifecycle->open && !lifecycle->open(element))
        return GST_STATE_CHANGE_FAILURE;
      break;
    case GST_STATE_CHANGE_READY_TO_PAUSED:
      /* Built before the pads activate and dropped after they stopped: a pipeline taken back
       * to READY runs again from the start. */
      if (lifecycle->start && !lifecycle->start(element))
        return GST_STATE_CHANGE_FAILURE;
      break;
    case GST_STATE_CHANGE_PLAYING_TO_PAUSED:
      if (lifecycle->set_playing)
        lifecycle->set_playing(element, FALSE);
      break;
    default:
      break;
  }

  GstStateChangeReturn ret = parent_class->change_state(element, transition);
  /* Even when the parent failed: its pads are deactivated as far as they could be, and what
   * start built must not outlive the state it belongs to. */
  if (transition == GST_STATE_CHANGE_PAUSED_TO_READY && lifecycle->stop)
    lifecycle->stop(element);
  if (ret == GST_STATE_CHANGE_FAILURE)
    return ret;

  switch (transition) {
    case GST_STATE_CHANGE_PAUSED_TO_PLAYING:
      if (lifecycle->set_playing)
        lifecycle->set_playing(element, TRUE);
      break;
    case GST_STATE_CHANGE_READY_TO_PAUSED:
    case GST_STATE_CHANGE_PLAYING_TO_PAUSED:
      if (!lifecycle->is_live || lifecycle->is_live(element))
        ret = GST_STATE_CHANGE_NO_PREROLL;
      break;
    default:
      break;
  }
  return ret;
}

static GstBaseTransformClass *transform_parent(GstBaseTransform *trans) {
  return g_type_class_peek_parent(G_OBJECT_GET_CLASS(trans));
}

static gboolean transform_query(GstBaseTransform *trans, GstPadDirection direction, GstQuery *query) {
  return rc_transform_query_answered(trans, direction, query)
      || transform_parent(trans)->query(trans, direction, query);
}

static gboolean transform_accept_caps(GstBaseTransform *trans, GstPadDirection direction, GstCaps *caps) {
  return rc_transform_accepts(trans, direction, caps) && transform_parent(trans)->accept_caps(trans, direction, caps);
}

void rc_transform_negotiation(GstBaseTransformClass *klass) {
  klass->query = transform_query;
  klass->accept_caps = transform_accept_caps;
}
