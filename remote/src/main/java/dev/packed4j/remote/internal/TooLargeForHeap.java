package dev.packed4j.remote.internal;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.ExtensionRegistryLite;
import com.google.protobuf.UnknownFieldSet;
import com.google.protobuf.WireFormat;
import dev.packed4j.remote.internal.proto.CallRequest;
import dev.packed4j.remote.internal.proto.Frame;
import dev.packed4j.remote.internal.proto.MemberTarget;
import dev.packed4j.remote.internal.proto.TypeMemberTarget;
import java.io.IOException;

/**
 * A call whose request the server ran out of heap reading (a message of millions of small values takes many times
 * its size as Java objects). gRPC would end such a call with "Application error processing RPC", which a client must
 * take for a lost session, and the executor thread would die with the error's stack on standard error. Instead the
 * marshaller reads again, from the bytes it still has, only what names the call (its session, target and site:
 * a few fields, no values), and hands the service this stand-in, which it answers with an error that says why; the
 * session goes on.
 */
final class TooLargeForHeap {
  /** The field of a stand-in's unknown fields that holds the message's size: no client sends it. */
  private static final int SIZE_FIELD = 1000;

  private TooLargeForHeap() {}

  /**
   * The stand-in of the CallRequest in {@code message}, or null when its bytes do not even name a call.
   *
   * @param message the request's bytes, as received
   * @param offset where the request starts in it
   * @param length its length
   */
  static CallRequest standIn(byte[] message, int offset, int length) {
    try {
      CodedInputStream in = CodedInputStream.newInstance(message, offset, length);
      CallRequest.Builder request = CallRequest.newBuilder();
      for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
        // Whole tags, field and wire type: a field of the wrong type is skipped, as the arguments are (never built).
        if (tag == varint(CallRequest.SESSION_FIELD_NUMBER)) {
          request.setSession(in.readUInt64());
        } else if (tag == delimited(CallRequest.GLOBAL_FIELD_NUMBER)) {
          request.setGlobal(in.readStringRequireUtf8());
        } else if (tag == delimited(CallRequest.MEMBER_FIELD_NUMBER)) {
          request.setMember(in.readMessage(MemberTarget.parser(), ExtensionRegistryLite.getEmptyRegistry()));
        } else if (tag == delimited(CallRequest.TYPE_MEMBER_FIELD_NUMBER)) {
          request.setTypeMember(in.readMessage(TypeMemberTarget.parser(), ExtensionRegistryLite.getEmptyRegistry()));
        } else if (tag == delimited(CallRequest.SITE_FIELD_NUMBER)) {
          request.setSite(in.readStringRequireUtf8());
        } else {
          in.skipField(tag);
        }
      }
      return request.setUnknownFields(UnknownFieldSet.newBuilder().addField(SIZE_FIELD,
          UnknownFieldSet.Field.newBuilder().addVarint(length).build()).build()).build();
    } catch (IOException | RuntimeException | OutOfMemoryError unreadable) {
      return null;
    }
  }

  /** The stand-in of a CallStream frame in {@code message} that carries a request, or null. */
  static Frame frameStandIn(byte[] message) {
    try {
      CodedInputStream in = CodedInputStream.newInstance(message);
      for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
        if (tag == delimited(Frame.REQUEST_FIELD_NUMBER)) {
          int length = in.readRawVarint32();
          CallRequest request = standIn(message, in.getTotalBytesRead(), length);
          return request == null ? null : Frame.newBuilder().setRequest(request).build();
        }
        in.skipField(tag);
      }
      return null;
    } catch (IOException | RuntimeException | OutOfMemoryError unreadable) {
      return null;
    }
  }

  /**
   * {@code request} as a client may send it: without the field that marks a stand-in, which a client that sends it
   * would otherwise have answered as too large for the heap (and told the server's heap size).
   */
  static CallRequest asSent(CallRequest request) {
    UnknownFieldSet unknown = request.getUnknownFields();
    return !unknown.hasField(SIZE_FIELD) ? request
        : request.toBuilder().setUnknownFields(UnknownFieldSet.newBuilder(unknown).clearField(SIZE_FIELD).build())
            .build();
  }

  /** {@code frame} with its request {@link #asSent(CallRequest)}. */
  static Frame asSent(Frame frame) {
    return !frame.hasRequest() || !frame.getRequest().getUnknownFields().hasField(SIZE_FIELD) ? frame
        : frame.toBuilder().setRequest(asSent(frame.getRequest())).build();
  }

  private static int varint(int field) {
    return field << 3 | WireFormat.WIRETYPE_VARINT;
  }

  private static int delimited(int field) {
    return field << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED;
  }

  /** {@return the size of the message {@code request} stands in for, or -1 when it is a request as sent} */
  static long size(CallRequest request) {
    UnknownFieldSet.Field field = request.getUnknownFields().getField(SIZE_FIELD);
    return field.getVarintList().isEmpty() ? -1 : field.getVarintList().get(0);
  }
}
