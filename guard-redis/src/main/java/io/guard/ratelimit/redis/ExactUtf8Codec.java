package io.guard.ratelimit.redis;

import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.codec.ToByteBufEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;

import java.nio.ByteBuffer;

/**
 * Lettuce's UTF-8 string codec, but telling Lettuce each argument's exact encoded length, so that Lettuce writes the
 * argument straight into the command's buffer. Lettuce's own {@link StringCodec#UTF8} gives only an estimate for
 * UTF-8, and Lettuce then encodes every key and argument into a buffer of its own first and copies it over: for a
 * decision's dozen keys and arguments a dozen direct buffers allocated and released on the event loop, each one
 * sampled by Netty's leak detector (which records a stack trace for one in 128), per decision. The bytes sent are
 * the same as {@code StringCodec.UTF8}'s; replies are decoded by it.
 */
final class ExactUtf8Codec implements RedisCodec<String, String>, ToByteBufEncoder<String, String> {

    static final ExactUtf8Codec INSTANCE = new ExactUtf8Codec();

    private static final StringCodec UTF8 = StringCodec.UTF8;

    private ExactUtf8Codec() {
    }

    @Override
    public boolean isEstimateExact() {
        return true;
    }

    /** The exact number of bytes {@link #encodeValue(String, ByteBuf)} writes. */
    @Override
    public int estimateSize(Object keyOrValue) {
        return keyOrValue == null ? 0 : ByteBufUtil.utf8Bytes((CharSequence) keyOrValue);
    }

    @Override
    public void encodeKey(String key, ByteBuf target) {
        encodeValue(key, target);
    }

    @Override
    public void encodeValue(String value, ByteBuf target) {
        if (value != null) {
            ByteBufUtil.writeUtf8(target, value);
        }
    }

    @Override
    public ByteBuffer encodeKey(String key) {
        return UTF8.encodeKey(key);
    }

    @Override
    public ByteBuffer encodeValue(String value) {
        return UTF8.encodeValue(value);
    }

    @Override
    public String decodeKey(ByteBuffer bytes) {
        return UTF8.decodeKey(bytes);
    }

    @Override
    public String decodeValue(ByteBuffer bytes) {
        return UTF8.decodeValue(bytes);
    }
}
