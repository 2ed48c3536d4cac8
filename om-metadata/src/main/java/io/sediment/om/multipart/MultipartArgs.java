package io.sediment.om.multipart;

import io.sediment.om.core.OmException.Code;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmValidation;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * The argument checks and the ETag arithmetic of multipart uploads: upload ids, part numbers,
 * ETags and completed-part lists are checked before a write starts (INVALID_ARGUMENT, nothing
 * changed). Stateless.
 */
final class MultipartArgs {

  private MultipartArgs() {
  }

  /**
   * The S3 multipart ETag: MD5 over the parts' ETags (each as its 16 bytes when it is 32 hex
   * digits, else its UTF-8 bytes) in order, as hex, then {@code -} and the part count.
   */
  static String multipartEtag(List<String> etags) {
    MessageDigest md5;
    try {
      md5 = MessageDigest.getInstance("MD5");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("MD5 unavailable", e);
    }
    for (String etag : etags) {
      md5.update(isMd5Hex(etag) ? HexFormat.of().parseHex(etag)
          : etag.getBytes(StandardCharsets.UTF_8));
    }
    return HexFormat.of().formatHex(md5.digest()) + "-" + etags.size();
  }

  static boolean isMd5Hex(String s) {
    if (s.length() != 32) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      if (Character.digit(s.charAt(i), 16) < 0) {
        return false;
      }
    }
    return true;
  }

  static String unquote(String etag) {
    return etag.length() >= 2 && etag.startsWith("\"") && etag.endsWith("\"")
        ? etag.substring(1, etag.length() - 1) : etag;
  }

  /** An upload id of this store: {@value OmKeys#ID_WIDTH} lowercase hex digits. */
  static void checkUploadId(String uploadId) {
    if (uploadId == null || uploadId.isEmpty()) {
      throw OmException.invalid("Upload id is missing");
    }
    try {
      OmKeys.parseId(uploadId);
    } catch (IllegalArgumentException e) {
      throw OmException.invalid("'" + (uploadId.length() <= 80 ? uploadId
          : uploadId.substring(0, 77) + "...") + "' is not an upload id: upload ids are "
          + OmKeys.ID_WIDTH + " lowercase hex digits");
    }
  }

  static void checkPartNumber(int partNumber) {
    if (partNumber < MultipartUploads.MIN_PART_NUMBER || partNumber > MultipartUploads.MAX_PART_NUMBER) {
      throw OmException.invalid("Part number must be " + MultipartUploads.MIN_PART_NUMBER + " to "
          + MultipartUploads.MAX_PART_NUMBER + ": " + partNumber);
    }
  }

  static void checkEtag(String etag) {
    if (etag == null || etag.isEmpty()) {
      throw OmException.invalid("Part ETag is missing");
    }
    OmValidation.checkOptionalText("Part ETag", etag);
  }

  static void checkCompletedParts(List<CompletedPart> parts) {
    if (parts == null || parts.isEmpty()) {
      throw OmException.invalid("A multipart upload is completed with at least one part");
    }
    if (parts.size() > MultipartUploads.MAX_PART_NUMBER) {
      throw OmException.invalid("At most " + MultipartUploads.MAX_PART_NUMBER + " parts: " + parts.size());
    }
    int previous = 0;
    for (CompletedPart p : parts) {
      if (p == null) {
        throw OmException.invalid("A completed part is missing (null)");
      }
      checkPartNumber(p.partNumber());
      checkEtag(p.etag());
      if (p.partNumber() <= previous) {
        throw new OmException(Code.INVALID_ARGUMENT, "Parts must be listed in strictly ascending "
            + "part number order: " + p.partNumber() + " follows " + previous
            + " (S3 InvalidPartOrder)");
      }
      previous = p.partNumber();
    }
  }
}
