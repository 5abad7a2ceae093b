"""The structure of a statement that its meaning alone does not settle: who it is about, whether it
asks, whether it tells of a past that no longer holds or of what is only imagined, whether it adds to
what was said. Chinese and English. These decide nothing by
themselves: they keep a decision of the models from reaching where it must not (a relative's move is
never the user's change of residence)."""

from __future__ import annotations

import itertools
import re
from typing import NamedTuple

# The subject is the user, not something of theirs ("my brother …", "我的…") nor a condition ("If I …").
_ABOUT_USER = re.compile(
    r"^\s*(?:(?:i|i'm|i've|i'd|i'll|we)\b(?!')|(?:the )?user\b(?!'s)|我(?!的)|我们|用户(?!的))", re.IGNORECASE
)
# The people and things of the user's that a statement can be about, English and Chinese.
# People first, then the groups the user is part of (a family's habit may be the user's own).
_PERSON_EN = (
    r"(?:mom|mum|dad|father|mother|parents?|brother|sister|sibling|son|daughter|wife|husband|partner|boyfriend"
    r"|girlfriend|fianc[eé]e?|friend|boss|manager|colleague|co-?worker|teammate|neighbou?r|room-?mate|flatmate|uncle"
    r"|aunt|cousin|nephew|niece|grand\w+|kids?|child(?:ren)?|landlord|in-laws?|\w+-in-law|teacher|doctor|classmate"
    r"|mentor|client|ex|bestie|mate|pal|buddy|supervisor|tutor|coach|therapist|dentist|trainer|professor|lecturer"
    r"|gp|vet|mp|councillor|vicar|priest|pastor|physio|accountant|solicitor|lawyer|barber|hairdresser|nanny"
    r"|childminder|babysitter|midwife|optician|intern|trainee|apprentice|head ?teacher|principal|headmaster"
    r"|headmistress)s?"
)
_RELATIVE_EN = (
    rf"(?:{_PERSON_EN}|(?:family|team|company|office|firm|agency|clinic|lab|startup|school|hospital|factory|studio)s?)"
)
_PET_EN = r"(?:dog|cat|puppy|kitten|pet|rabbit|bunny|hamster|guinea pig|parrot|budgie|tortoise|turtle|horse|pony)s?"
_PET_ZH = r"(?:猫|狗|宠物|兔|仓鼠|鹦鹉|乌龟|马)"
_WEEKDAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
_MY_PERSON_EN = rf"(?:my|our)\s+(?:\w+\s+){{0,2}}?{_PERSON_EN}\b"  # "my sister", "my best friend", "our son"
# Someone named by whose they are: "Tom's brother", "Priya's mum".
_NAMED_ONES_PERSON = (
    rf"(?!(?:It|That|This|There|Here|What|Who|He|She|Everyone|Everybody)'s)(?-i:[A-Z])[\w-]*'s\s+(?:\w+\s+)?"
    rf"{_PERSON_EN}\b"
)
_PERSON_ZH = (
    r"(?:爸|妈|父|母(?!校|语|乳)|哥|姐|弟|妹|儿子|女儿|孩子|老婆|老公|太太|先生|丈夫|妻子|男朋友|女朋友|男友|女友|未婚夫|未婚妻|对象"
    r"|朋友|同事|老板|领导|上司|主管|经理|邻居|室友|舅|姨|叔|姑|表[哥姐弟妹叔姑舅姨]|堂[哥姐弟妹兄]|侄|外甥|爷|奶奶"
    r"|外公|外婆|房东|岳[父母丈]|公公|婆婆|老师|医生"
    r"|同学|闺蜜|发小|舍友|师兄|师姐|师弟|师妹|导师|客户|队友|亲戚|宝宝|儿媳|女婿|前任|闺女|小孩|娃|实习生|下属|徒弟|新人)"
)
# What tells which of them in Chinese, as "old", "former" or "new" do among the English words before one, and the
# group of the user's they are in ("我们组新来的实习生", "我们部门的经理").
_WHICH_ZH = r"(?:(?:组|部门|团队|科室|项目组|课题组|班)(?:里|上)?(?:新来的|的)?)?(?:前|新|老|大学|高中|初中|小学)?"
_RELATIVE_ZH = rf"(?:{_PERSON_ZH}|家人|公司|单位|办公室|律所|事务所|医院|诊所|学校|工厂|实验室|工作室)"
# People at large, or many of those around the user ("Everyone at the office switched to iPhones", "Most of my
# friends are married", "大家都换了电车"): a quantifier as the subject, a closed class of the grammar.
_PEOPLE_AT_LARGE = (
    r"(?:(?:every(?:one|body)|no ?one|nobody|(?:most|many|some|lots|loads) (?:of )?people|people"
    r"|(?:all|most|half|many|some|none|lots|loads|a few|a lot)(?: of)? (?:my|our|the) "
    rf"(?:\w+ )?(?:{_RELATIVE_EN}|people))\b"
    r"|大家|所有人|别人|人人|(?:很多|不少|好多|许多|身边的|周围的)人)"
)
# What they do to the user, in the same clause ("Everybody at the club calls me Fitz", "大家都喊我阿杰").
_AT_LARGE_TO_THE_USER = re.compile(
    rf"^\s*{_PEOPLE_AT_LARGE}[^.,;!?]*?\b(?:me|us)\b|^\s*{_PEOPLE_AT_LARGE}[^，,。！？]*?[把让叫喊称管]我",
    re.IGNORECASE,
)
# What another says of the user, told as theirs to say: the user's fact ("My doctor says my blood pressure is fine",
# "医生说我的血压控制得还行"), not their advice ("My mum says I should move to Leeds").
_SAYS_OF_THE_USER = re.compile(
    rf"^\s*(?:(?:my|our|the)\s+(?:\w+\s+){{0,2}}?{_PERSON_EN}|he|she|they)\s+(?:says|said|told me)"
    r"\s+(?:that\s+)?(?:I|I'm|I've|my|me)\b(?![^.!?]*\b(?:should|ought|had better)\b)"
    rf"|^\s*(?:我的?|我们的?)?{_WHICH_ZH}{_PERSON_ZH}\S{{0,2}}?(?:说|讲)我(?![^。！？]*(?:应该|最好|建议))",
    re.IGNORECASE,
)
# "The shorter the answer the better for me", "the sooner the better": a comparative correlative has no subject of
# its own to be someone else.
_CORRELATIVE = r"(?:more|less|fewer|\w+er)\b[^.!?]*?\bthe\s+(?:more|less|fewer|\w+er)\b"
# The subject is another person or thing: a relative, a friend, a colleague, an organisation, "his …", people at large.
_SOMEONE_ELSE = re.compile(
    rf"^\s*(?:(?:my|our)\s+(?:\w+\s+){{0,2}}?{_RELATIVE_EN}\b|(?:his|her|their|its)\b|the\s+(?!user\b|{_CORRELATIVE})\w+"
    rf"|{_NAMED_ONES_PERSON}"
    r"|(?:he|she|they)\b)"
    rf"|^\s*(?:我的?|我们的?|我家的?|用户的)?{_WHICH_ZH}{_RELATIVE_ZH}"
    r"|^\s*(?:他|她|他们|她们|它)"
    rf"|^\s*{_PEOPLE_AT_LARGE}",
    re.IGNORECASE,
)
# Who someone is to the user ("My girlfriend is called Anna", "Anna is my girlfriend", "My manager is
# Claire", "我女朋友叫小雨", "米米是我女儿"): the user's own relationship, a fact of theirs, not of the
# other person's. A name is told by its capital in English (so case matters here); in Chinese by 叫, or
# by a common surname (a closed class) opening a word of two or three characters that is not a trade or
# an origin, or after 小 or 老 ("王经理", "李总", "张伟", "小李"; not "高中生", "程序员", "湖南人").
_NAME = r"[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?"
_SURNAME = (
    r"[王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蒋蔡余杜叶程苏魏吕丁任沈姚卢"
    r"姜崔钟谭陆汪范石廖贾夏韦方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤高金]"
)
_GIVEN_ZH = r"[^\s，,。员生人家者手]{1,2}(?<![员生人家者手])"
_NAME_ZH = rf"(?:(?:小|老){_SURNAME}(?:{_GIVEN_ZH})?|{_SURNAME}{_GIVEN_ZH})"  # "小李" alone is a name
_NAMES_A_RELATION = re.compile(
    rf"^\s*(?i:my|our)\s+(?:\w+\s+){{0,2}}?(?i:{_RELATIVE_EN})(?:'s name is\b|\s+(?:is called|is named|goes by)\b"
    rf"|\s+is\s+{_NAME}\s*(?:now\s*)?[.!]?\s*$)"
    rf"|^\s*{_NAME}\s+is\s+(?i:my|our)\s+(?:\w+\s+){{0,2}}?(?i:{_RELATIVE_EN})\b"
    rf"|^\s*(?:我的?|我们的?){_RELATIVE_ZH}\S{{0,3}}?(?:的名字)?(?:叫|名叫|名字叫|名字是)"
    rf"|^\s*(?:我的?|我们的?){_RELATIVE_ZH}\S{{0,2}}?是{_NAME_ZH}(?:了)?[。.!！]?\s*$"
    rf"|^\s*[^\s，,。]{{1,6}}是我的?\S{{0,2}}?{_RELATIVE_ZH}"
)
# Another person as the subject.
_ANOTHER_PERSON = re.compile(
    rf"^\s*(?:{_MY_PERSON_EN}(?:'s\s+\w+)?|{_NAMED_ONES_PERSON}|(?:his|her|their)\s+\w+|he|she|they)\b"
    rf"|^\s*(?:我的?|我们的?|我家的?)?{_WHICH_ZH}{_PERSON_ZH}"
    r"|^\s*(?:他|她|他们|她们)",
    re.IGNORECASE,
)
# The user beside them: "My wife and I …", "我老婆和我…" are the user's own.
_WITH_THE_USER = re.compile(r"^\s*\S+(?:\s+\S+){0,3}?\s+(?:and|&)\s+(?:i|me)\b|^\s*\S{1,8}?和我", re.IGNORECASE)
# The user as what another does something to: "They moved me to the Leeds office", "My boss made me team lead",
# "公司把我调到了杭州", "医生让我少吃盐": no news of theirs, but what it tells of the user is kept. Still told by
# another, it is never read as the user's own change ("they moved me to a new desk" is no new workplace).
_TO_THE_USER_FIRST = re.compile(
    r"^\s*\S+(?:\s+\S+){0,3}?\s+(?:me|us)\b|^\s*[^，,。\s]{1,8}?[把让叫派]我", re.IGNORECASE
)
# What happened, happens or will happen, told as news: a recent past ("just", "刚"), a future ("will",
# "going to", "要…了"), a day or a stretch named from today ("yesterday", "next spring", "下个月").
# Tense and deixis, closed classes of the grammar, not the topic.
_TOLD_AS_NEWS = re.compile(
    r"\b(?:just|will|'ll|going to|about to|is getting|are getting|yesterday|tomorrow|tonight"
    r"|(?:next|last) (?:week|weekend|month|year|spring|summer|autumn|fall|winter|term|night)|this week(?:end)?"
    rf"|(?:on |this |next |last )?{_WEEKDAY})\b"
    r"|刚|明天|昨天|前天|后天|明年|去年|[上下]个?(?:周|月|星期|礼拜)|这(?:周|个?星期|个?礼拜)"
    r"|(?:要|快|就要|将要|即将)\S{1,12}了|即将",
    re.IGNORECASE,
)
# A verb in the simple past right after its subject ("… crashed his car", "… lost a tooth"): an event.
# The regular ending (not "-eed": "need", "feed"), or an irregular past, a closed class. Matched from the
# subject's end, so no "^".
_PAST_VERB = (
    r"(?:\w{2,}(?<!e)ed|broke|got|went|came|had|bought|sold|took|gave|made|fell|ran|met|began|became|found|sent|spent"
    r"|flew|drove|wrote|told|said|saw|won|lost|left|built|caught|chose|did|ate|forgot|grew|hit|hurt|kept|knew|paid|put"
    r"|rode|sang|sat|shot|slept|stole|swam|threw|woke|wore)\b"
)
_PAST_EVENT = re.compile(
    rf"\s*(?:(?:also|finally|recently|suddenly|actually|apparently)\s+)?{_PAST_VERB}", re.IGNORECASE
)
_QUESTION = re.compile(r"[?？]\s*$")
# A past that no longer holds: a habit given up, a childhood, "back then" ("back in 2015", "当年"), a time told by
# a state it was in ("When I lived in Paris I cycled everywhere"), growing up ("I grew up in Derry", "我在宜昌长大"),
# where one studied, told as done ("我大学是在武汉读的"), what was "my previous" one (as "我以前的"), a
# stretch that is over (the simple past with how long it lasted or when, "I lived in Edinburgh for a few years", "I
# worked in Leeds after uni", not "I've lived here for two years"; a period of life, "during uni"; the
# experiential 过, "在合肥住过"; not the 过去 of where a move goes, "全家搬过去了"; nor being used to something, "I'm
# used to chaos").
_PAST = re.compile(
    r"(?<!'m )(?<!\bam )(?<!'re )(?<!\bare )(?<!\bis )(?<!'s )(?<!\bgot )(?<!\bget )(?<!\bbe )\bused to\b"
    r"|\bas a (?:kid|child|teenager|student)\b|\bback then\b|\bgrew up\b"
    r"|\bwhen (?:i|we) (?:was|were|lived|worked|studied|stayed|had|owned|drove)\b"
    r"|\bback in (?:the day|(?:19|20)\d\d|the (?:19|20)?\d0s|(?:high )?school|college|uni|university)\b"
    r"|\b(?:my|our) (?:previous|former)\b"
    r"|\bduring (?:uni|university|college|school|my childhood)\b|\bin my (?:teens|twenties|thirties|youth)\b"
    r"|(?<!'ve )(?<!have )(?<!has )\b(?:lived|worked|studied|stayed|was|were)\b[^.;,]*"
    r"\b(?:for (?:[\w-]+ ){0,3}?(?:years?|months?)|(?:after|before) (?:\w+ )?(?:uni|university|college|school)"
    r"|(?:after|before) graduating)\b"
    r"|以前|小时候|曾经|(?<![搬调转嫁跳])过去|那时候|当年|年轻时|(?:住|工作|待|呆|生活|当|做|干|打|读|上)过|长大"
    # where a stage of study was done, told as done (是…的): "我大学是在武汉读的", "我是在成都上的高中"; not "上班的"
    r"|是在[^，。,]{1,10}?(?:读|念|上(?!班))的"
    r"|(?:上学|读书|念书|上大学|大学|高中|初中|小学)(?:的)?时候"
    # before a stage of life: "我上大学前住在九江", "结婚之前", "before uni"
    r"|(?:上学|读书|上大学|上高中|上初中|读研|毕业|工作|结婚|出国|退休|生孩子|来\S{1,4})(?:之|以)?前(?!面|天|台|段)"
    r"|\bbefore (?:uni|university|college|i (?:got married|had (?:the )?kids|moved|started work(?:ing)?))\b",
    re.IGNORECASE,
)

# Modality: a condition, a counterfactual, a wish or a maybe ("If I worked at …", "要是当初…", "someday").
_IMAGINED = re.compile(
    r"^\s*(?:if|suppose|supposing|imagine|say)\b|\bwhat if\b|\bif i\b|\bsome ?day\b|\bone day\b|\bmight\b"
    r"|\bmaybe\b|\bperhaps\b|\b(?:would|'d) (?:love|like) to\b|\bi wish\b"
    r"|\b(?:thinking|thought) (?:about|of)\b|\bconsidering\b|\bwondering (?:about|whether|if)\b"
    r"|如果|要是|假如|假设|万一|也许|或许|说不定|哪天|有一天|想象|当初|可能会|的话(?!题)|考虑|一直想|总想|(?:真|很|好|太|特别|超)想",
    re.IGNORECASE,
)
# Intent: what the user means, wants or is set to do, not done yet ("I'm planning to move …", "I plan to retrain
# next year", "我们计划年底搬到佛山去", "我准备明年辞职", "我想搬去大理住"), or what is about to be ("明锐快要年检了":
# its 了 is of what is near, as "about to" is). A plan is kept as what it is; it changes nothing that holds.
_ABOUT_TO_ZH = r"快要|就要|马上(?:就)?要"
# How many, in English words or digits: "three", "a few", "12".
_A_COUNT_EN = r"\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a few|a couple of|several"
# The English progressive with a time to come is an arrangement, not yet done ("we're moving offices next month",
# "I'm starting at Aldi on Monday").
_TIME_TO_COME_EN = (
    rf"next|tomorrow|soon|this coming|later this|in (?:{_A_COUNT_EN}) (?:days?|weeks?|months?)"
    rf"|on {_WEEKDAY}|in (?:january|february|march|april|may|june|july|august|september|october|november|december)"
)
_INTENT = re.compile(
    r"\b(?:plan(?:s|ning)?|intend(?:s|ing)?|aim(?:s|ing)?|hop(?:e|es|ing)|wants?|wanna|(?:would|'d) like) to\b"
    r"|(?<=[我们也还都])想要?(?![念起法象想])"
    # "I'm moving to …", or with no subject: "still in Bristol but moving to Bath next month"
    r"|(?:\b(?:am|are|is|'m|'re|'s|but|and|so)\s+|^\s*)(?:going|about|moving|relocating|emigrating) to\b"
    rf"|\b(?:am|are|is|'m|'re|'s)\s+(?:\w+\s+)?\w+ing\b(?=[^,.;!?]*\b(?:{_TIME_TO_COME_EN})\b)"
    r"|打算|计划|准备(?![了好])|预计|将要|即将|" + _ABOUT_TO_ZH,
    re.IGNORECASE,
)
# Continuity: what held before holds on ("I still help out at the food bank", "我还在北京读博", "我依然每天游泳").
_GOES_ON = re.compile(
    r"\bstill\b|\bcontinu(?:e|es|ing) to\b|\bas (?:always|ever)\b|还在|还是|仍然|仍旧|依然|依旧|照样|照旧",
    re.IGNORECASE,
)
# What has held for long: "I've been plant-based for years", "for ten years", "我从小在上海长大", "我一直用 Neovim".
_HELD_LONG = re.compile(
    rf"\bfor (?:(?:many|so many|(?:over|nearly|almost|more than|about|the (?:last|past)) \w+|(?:{_A_COUNT_EN})\+?"
    r"|fifteen|twenty|thirty|forty)\s+)?(?:years|ages|decades)\b|\b(?:all|the whole of) my life\b|\bmy whole life\b"
    r"|\bsince (?:i was (?:a kid|a child|little|young)|childhood)\b"
    r"|多年|好几年|从小|一直|[\d两三四五六七八九十几]+多?年了",
    re.IGNORECASE,
)
# A feeling about something ("I don't like London anymore", "I hate my commute", "我越来越讨厌这份工作"): the
# verbs of liking and disliking right after the subject, a closed class of the grammar.
_FEELS = re.compile(
    r"^\s*(?:i|we)\s+(?:(?:don't|do not|didn't|no longer|really|still|actually|absolutely|totally|just|kind of"
    r"|kinda)\s+)*(?:like|love|enjoy|hate|dislike|miss|mind|can't stand|cannot stand|adore|loathe)\b"
    r"|^\s*我们?(?:现在|最近|其实|真的|越来越|已经|还|也|都|不|没|很|挺|太|有点|再也)*(?:喜欢|讨厌|享受|受不了|烦|反感)",
    re.IGNORECASE,
)
_BUT = re.compile(r"\b(?:but|however|though|although|yet)\b|不过|但|可是|然而|只是", re.IGNORECASE)
# Make-believe: a story, a game or a role the user asks for ("Imagine I were a dragon", "Let's pretend
# I'm a pirate", "假装你是…"). Unlike a condition ("If I'm offline, email me"), nothing in it is meant.
_MAKE_BELIEVE = re.compile(
    r"^\s*(?:(?:let's|let us|we could)\s+)?(?:imagine|pretend|suppose|supposing|role-?play|play the part)\b"
    r"|^\s*(?:let's|let us|shall we)\s+play\b"
    r"|^\s*(?:我们|咱们)?(?:来)?(?:假装|想象一下|想象|假设|角色扮演|玩角色扮演)"
    r"|^\s*(?:我们|咱们)?来玩",
    re.IGNORECASE,
)
# How the user wants to be answered or addressed, from now on: a reply verb with the manner it asks for
# ("answer in Portuguese", "reply more formally", "keep your answers short", "用繁体字回复我", "回答请用英文",
# "回答详细一点"), or the name to use
# ("call me Sam"). Requests about one thing name it ("answer this email", "回复一下这封信"): ``_ONE_OFF``.
_STANDING_INSTRUCTION = re.compile(
    r"^\s*(?:please\s+)?(?:always\s+|from now on,?\s+)?"
    r"(?:(?:answer|reply|respond)(?:\s+(?:back\s+)?to\s+me)?|(?:write|talk|speak)(?:\s+back)?\s+to\s+me)"
    r"\s+(?:in|using)\s+(?!(?:a|an|the|my|your)\b)"  # a language, a style; not "in a minute", "in the box"
    r"|^\s*(?:please\s+)?(?:always\s+|from now on,?\s+)?(?:answer|reply|respond|write|talk)\s+(?:to\s+me\s+)?"
    r"(?:more\s+|less\s+)?\w+ly\b"  # a manner: "answer briefly", "reply more formally"
    r"|^\s*(?:please\s+)?(?:always\s+)?keep\s+(?:(?:your|all|the)\s+)?(?:answers|replies|responses|messages)\s+\w+"
    r"|^\s*(?:please\s+)?(?:call|address)\s+me\s+(?:as\s+)?(?-i:[A-Z])"  # a name, not "call me a taxi"
    r"|^\s*(?:请)?(?:以后|今后|之后)?(?:都|一律)?(?:请)?(?:用|以)[^，。,.]{1,12}(?:回答|回复|答复|跟我说话|和我说话)"
    r"|^\s*(?:回答|回复|答复)我?(?:的时候)?[，,]?(?:请)?(?:都|一律)?(?:用|以)"
    r"|^\s*(?:请)?(?:以后|今后|之后)?(?:都|一律)?(?:请)?(?:回答|回复|答复)我?(?:得|要|请)?[^，。,.\s]{1,5}?(?:一点|一些|些|点)"
    r"\s*[。.!！]?\s*$",  # a manner: "回答详细一点"
    re.IGNORECASE,
)
_ONE_OFF = re.compile(r"\b(?:this|that|these|those|it|them|him|her)\b|这|那|此|一下|他|她|它", re.IGNORECASE)
# Anchored to this very day or moment ("today", "just now", "今晚"): a mood, the weather, what one is
# doing. Deictic time of this kind is a closed class. "At the moment" is not in it: it names the present
# stretch of a life as often as this minute ("I'm studying Japanese at the moment").
_OF_THE_MOMENT = re.compile(
    r"\b(?:today|tonight|this (?:morning|afternoon|evening)|right now|just now)\b"
    r"|今天|今晚|今早|今儿|今天早上|刚才|此刻|这会儿",
    re.IGNORECASE,
)
# An additive focus ("I also like …", "我也…", "as well", "too" closing a clause: "my brother moved to Leeds too, so
# we're neighbours now", and "either" closing a denied one: "I don't drink alcohol either"): one more value of a
# many-valued fact, never the same one again nor a replacement.
# Not "也" of "一点也不" nor of "不吃肉也不吃鱼" (neither … nor): only "我也不…" adds a denial. "又…一只" is "another"
# ("我又养了一只狗", and with no 一 "我又开了个账户"), and "又…了" with a count is as much again ("这个月我又存了五千
# 块", "another £500"), unless what is done again is a change ("我又换了一个工作", "工资又涨了五百"). Not "to another"
# nor "for another" ("Sandra moved to another team"): a different one. "A second …" is one more ("we adopted a second
# cat"), not when it is asked for ("every merge needs a second approver") nor which year ("a second-year student").
# Opening one is one more of its kind ("I opened a savings pot with Chip" beside "I bank with HSBC", "我开了个余额宝").
_ADDITIVE = re.compile(
    r"\balso\b|\bas well\b|\b(?:too|either)\s*(?:[.!]?\s*$|[,;])|(?<!\bto )(?<!\bfor )\banother\b"
    r"|\bopened (?:a|an|my first)\b|开了一?[个张](?!玩笑)"
    r"|(?<!\bneed )(?<!\bneeds )(?<!\brequire )(?<!\brequires )\ba (?:second|third|fourth)\b(?!-)"
    r"|\bin addition\b|\bbesides\b"
    r"|也(?!不|没|许)|^\s*我们?也(?=不|没)|另外|此外|还有"
    r"|又(?!换|搬|跳|转|改)(?:[^，。,.\s]{0,3}一(?:只|个|辆|台|条|套|本|门|位|家|部|份)|[^，。,.\s]{1,2}了个)"
    r"|又(?!换|搬|跳|转|改|涨|降|升|胖|瘦|长)[^，。,.\s\d了]{1,2}了[\d两三四五六七八九十几百千万]",
    re.IGNORECASE,
)

# A thing left somewhere ("I left my laptop charger at the office"): forgotten, not an ending ("I left my job at
# Tesco").
_A_THING_SOMEWHERE = (
    r"\s+(?:my|the|a|an|our|his|her)\s+(?:[\w-]+\s+){0,2}?(?!(?:job|role|post|position|team|band|company|firm|school"
    r"|course|partner|husband|wife|boyfriend|girlfriend)\b)[\w-]+\s+(?:at|in|on|behind)\b"
)
# A span of weeks or more gone without a habit ("six weeks smoke-free", "a year sober"): its end. Told as a denial
# ("I haven't had a drink in six months", "三个月没喝酒了"), it is how long the end has held, no circumstance.
_A_SPAN = rf"(?:{_A_COUNT_EN})\s+(?:weeks?|months?|years?)"
_ABSTAINS_EN = rf"{_A_SPAN}\s+(?:now\s+)?(?:[\w-]+-free|sober|clean|off (?:the )?\w+|without (?:a |an |any )?\w+)"
_ABSTAINING = re.compile(rf"\b{_ABSTAINS_EN}", re.IGNORECASE)
_A_COUNT_ZH = r"[\d一二两三四五六七八九十几半]+"  # "三", "十几", "半", "2"
_HOW_LONG = re.compile(
    rf"\b(?:(?:in|for) (?:the (?:last|past) )?)?{_A_SPAN}\b"
    rf"|{_A_COUNT_ZH}个?多?(?:星期|礼拜|周|月|年(?!级))多?",
    re.IGNORECASE,
)
# The changes of state that end one: what held before holds no more. Each is a change of state too. Not "left" the
# adjective, after a determiner or before a hyphen ("my left ear", "on the left", "left-handed").
_LEFT_THE_ADJECTIVE = "".join(rf"(?<!\b{d} )" for d in ("my", "the", "his", "her", "your", "our", "their"))
# What two people end between them ("Tom and I split up"); what else ends, the two may do to a third thing together
# ("Sophie and I left the party", "we sold the house").
_ENDS_TOGETHER_EN = (
    r"no longer|any ?more|broke (?:up|it off)|split up|separated|divorced|ended (?:things|it)|called it quits"
    r"|called (?:it )?off|parted ways|went (?:our|their) separate ways|(?:is|are|'s|'re) (?:gone|history)"
)
_ENDS_EN = (
    rf"{_ENDS_TOGETHER_EN}|stopp(?:ed|ing)|quit|gave up|given up"
    rf"|moved out|{_LEFT_THE_ADJECTIVE}left(?!-|{_A_THING_SOMEWHERE})|sold|laid (?:\w+ )?off"
    r"|(?:let (?:me |us )?|was let )go|fired"
    r"|made redundant|resigned"
    r"|handed in (?:my |our )?notice|(?:my |our )?(?:last|final) day|ditched|dumped|dropped|packed in"
    r"|got rid of|scrapped|cut (?:\w+ )?out"
    rf"|{_ABSTAINS_EN}"
)
# 裁员 (cutting staff) is what an employer does: it ends the user's job only when said of them (被…裁员).
_ENDS_ZH = (
    r"不再|搬出|搬走|戒(?!指|备)(?:了|掉|烟|酒|糖|[\u4e00-\u9fff]{1,4}?了)|分手|分开了|离婚|离职|辞(?:职|了|掉)|脱单|卖(?:了|掉)|裁(?:了|掉)|被[\u4e00-\u9fff]{0,4}?裁员|开除|辞退"
    r"|被炒"
)
_ENDING = re.compile(rf"\b(?:{_ENDS_EN})\b|{_ENDS_ZH}", re.IGNORECASE)
# A change of state told as an event (it began, it ended, it moved): "I moved out of …", "我开始吃鱼了".
# Beside a fact that states how things are, such a sentence is never the same fact again. Not "again"
# nor "又": a thing happening once more ("late again") changes nothing.
_CHANGE_OF_STATE = re.compile(
    rf"\b(?:{_ENDS_EN}|start(?:ed|ing)|began|switch(?:ed|ing)|mov(?:ed|ing)|relocated"
    r"|chang(?:ed|ing)(?!\s+(?:my|his|her|their|our|your)\s+minds?\b)|swapp?(?:ed|ing)|ported"
    r"|replaced|traded|became|got (?:engaged|married|divorced)|promoted|transferred|instead|first (?:day|shift|week)"
    r"|got (?:a |an )?(?:new )?job|new job|(?:my|our) new (?:place|house|home|flat|apartment)|got the keys"
    r"|joined|accepted (?:an? |the |their )?(?:offer|job|role|position)|graduated"
    r"|qualified as|went (?:vegan|vegetarian|veggie|pescatarian|plant-based|teetotal|sober|freelance|part-time"
    r"|full-time|self-employed)"
    r"|(?:I|we|I've|we've|just|finally) retired)\b"
    rf"|{_ENDS_ZH}|第一天|最后一天|开始|搬到|搬去|搬回|搬进|搬过[去来]|搬完?家|换了(?!一?下)|换成|改成|改用|改到|调到|调去|调回|订婚|结婚了|跳槽|毕业了|入职|报到",
    re.IGNORECASE,
)


# A denial ("I don't …", "never", "我不…", "没有…"), and the aspect that tells a state has changed since:
# "now", "anymore", "no longer", "已经", the 了 of a new situation ("我不跑步了").
# 不, 没 and 别 deny, except in words that carry them and deny nothing: 不错 (good), 不过 (but; 不过敏 denies), 不仅,
# 不少, 不久, 不断, 不然, 不得不 (must), 没错, 没关系; 特别 (especially), 区别, 分别, 告别, 性别, 级别, 别的, 别人.
# Nor does "no" or "not" as the first part of a compound ("a no-go", "a not-for-profit"), save "no-one".
_DENIAL = re.compile(
    r"n't\b|\b(?:not|never|no|nothing|none|nobody|neither)\b(?!-(?!one\b))"
    r"|(?<!不得)不(?!错|过(?!敏)|仅|少|久|断|然|得不)|没(?!错|关系)|(?<![特区分告性级类个差辨识离])别(?![的人处致扭])",
    re.IGNORECASE,
)
_PRESENT_EN = r"now|these days"
_PRESENT_ZH = r"现在|如今"
_NOW_EN = rf"{_PRESENT_EN}|any ?more|no more|no longer|again"
_NOW_ZH = rf"{_PRESENT_ZH}|已经"
# The aspect particle 了, not 了 read liǎo: what cannot be done ("我受不了那个味道", "我吃不了辣"), or understanding
# ("我不了解").
_LE = r"(?<!不)了(?!解)"
_CHANGED_SINCE_IN_WORDS = re.compile(rf"\b(?:{_NOW_EN}|since)\b|{_NOW_ZH}|再", re.IGNORECASE)
_CHANGED_SINCE = re.compile(rf"{_CHANGED_SINCE_IN_WORDS.pattern}|{_LE}", re.IGNORECASE)
# Taking something up ("I started running with a heart-rate monitor", "我最近开始负责一个新项目") adds to a
# life; it replaces a fact only when it says so: "now", "again", "已经", the perfect ("I've started …") or the
# 了 of a new situation that tell it holds now, or by turning the fact around.
_BEGINNING = re.compile(r"\b(?:start(?:s|ed|ing)?|began|begun|took up|taken up)\b|开始", re.IGNORECASE)
# 又 ("once more") tells what holds now only when something is taken up again ("我又开始喝咖啡了"); "比亚迪又换了新
# logo" is one more event.
_NOW_WORDS = (
    rf"\b(?:{_NOW_EN}|nowadays)\b|(?:'ve|\bha(?:ve|s)) (?:just )?(?:started|begun|taken up)|{_NOW_ZH}|不再|重新"
    r"|又(?=开始|恢复|回|重新)"
)
_NOW_WORD = re.compile(_NOW_WORDS, re.IGNORECASE)
_NOW_HOLDS = re.compile(rf"{_NOW_WORDS}|{_LE}\s*(?:[。！!]|$)", re.IGNORECASE)  # and the 了 of a new situation
# A closing 了 of no new situation: of what is near ("明锐快要年检了", "我们马上就要搬走了"), or of a degree
# exclaimed ("太麻烦了", "太贵了"; not a word of 太, "我在太平洋时区了"), by 极 or 透 ("好极了", "糟透了") or
# by 死 or 坏 after how one feels ("每天忙死了", "累坏了"; not "我的猫死了", "电脑坏了").
_DEGREE_ZH = r"(?:忙|累|困|饿|渴|热|冷|晒|烦|气|急|闷|吵|挤|笑|吓|疼|痛|难受|无聊|郁闷|开心|高兴|紧张|尴尬)[死坏]|极|透"
_NO_NEW_SITUATION_ZH = re.compile(
    rf"(?:(?:{_ABOUT_TO_ZH})[^，,。！!？?]*|太(?!平|太|阳|极|空|原|湖)[^，,。！!？?]{{1,6}}?|{_DEGREE_ZH})了\s*(?:[。！!]|$)"
)
# Having and its denial: "I have two kids" and "I don't have children", "我有车" and "我没有车".
_HAVING = re.compile(r"\b(?:have|has|own|owns|got)\b|有", re.IGNORECASE)
_NOT_HAVING = re.compile(
    r"\b(?:don't|do not|doesn't|does not|never)\s+(?:have|own)\b|\bha(?:ve|s) no\b|没", re.IGNORECASE
)

# A change done to a thing of the user's, not to the user's state: the verb's object is a thing named with
# "my"/"the" ("I moved my desk …", "I changed the tyres …"), or put before the verb by 把/给 ("我把书桌搬到了
# 窗边", "我给车换了新轮胎", and whatever was done for what 给 names: "我给平板配了支笔", "我给房东交了房租").
# "I moved to Leeds", "I switched to an iPhone" and "我换了 iPhone" take none, nor does what the user did for
# themselves ("我给自己找了份新工作") or for whom they work ("我现在给一家外企打工了").
# The verbs that change a thing, without their "-ed".
_CHANGING_EN = r"(?:mov|chang|switch|swapp|replac|rearrang|repaint)"
_DONE_TO_A_THING = re.compile(
    rf"\b{_CHANGING_EN}ed\s+(?:my|the|our)\s+(?!(?:job|name|family|home)\b)\w+"
    r"|给(?!家)[^，,。]{1,8}?(?:搬|挪|换|改|调)|给(?!家|自己|我|咱|了)[^，,。]{1,8}?[\u4e00-\u9fff]{1,2}[了过]"
    r"|(?<![一两几这那每])把(?!家)[^，,。]{1,8}?[\u4e00-\u9fff]",
    re.IGNORECASE,
)
# A thing of the user's named by its own name and changed: "I switched my Duolingo to the Mexican course".
_A_NAMED_THING_DONE_TO = re.compile(rf"\b{_CHANGING_EN}ed\s+(?:my|our)\s+((?-i:[A-Z])[\w-]*)", re.IGNORECASE)
_WORKS_FOR = re.compile(r"给[^，,。]{1,8}?(?:打工|当|干活|做事|上班|工作|开车|带孩子)")


# A question that first states something: "I'm allergic to peanuts, so can you …?", "我搬到杭州了，你能
# 推荐…吗？". Its clauses are cut where punctuation joins them, where an ask opens with a conjunction ("I'm
# diabetic so can you suggest a cake?"), or where "so" opens what follows with its subject, as chat joins clauses
# without a comma ("I'm asthmatic so the gym air con gets me"; not "so much", "so that"); the ask is the clause that
# opens with an interrogative, an auxiliary or a request ("so can you", "any ideas", "你能", "请"), else the last one.
_CLAUSE = re.compile(
    r"\s*(?:[,，;；:：]|\s[-–—]\s)\s*|\s+(?=(?:so|and|but)\s+(?:can|could|would|will)\s+you\b)"
    r"|\s+(?:and\s+)?(?=so\s+(?:I|I'\w+|my|me|we|we'\w+|our|you|it|it's|this|there|the|no|please|don't|do)\b)",
    re.IGNORECASE,
)
_ASK = re.compile(
    r"^\s*(?:(?:so|and|but|then|now|anyway|also)\s+)?(?:can|could|would|will|should|shall|do|does|did|is|are|was"
    r"|were|may|am|any|anything|how|what|what's|where|when|which|who|whom|whose|why|please|let me know|tell me)\b"
    r"|^\s*(?:所以|那么?|因此|但是?|另外)?(?:你|您|能不能|能否|可不可以|可以|有没有|有什么|怎么|怎样|如何|什么|哪|为什么|请|帮我|麻烦|求)",
    re.IGNORECASE,
)


# A proposal: what the user suggests be done, not what holds ("let's do a risotto instead", "咱们周末去爬山吧").
_PROPOSAL = re.compile(
    r"^\s*(?:(?:so|and|ok(?:ay)?|then)\s+)?(?:let's|let us|shall we|how about|what about|why don't we)\b"
    r"|^\s*(?:那)?(?:咱们?|我们)[^，,。]*吧\s*[。！!]?\s*$",
    re.IGNORECASE,
)


# A task asked of the assistant about one thing, maybe after where it is ("in the draft, change the sender to
# support@example.com please", "Move the 3pm to Thursday"): what it names is the thing's, not the user's ("change my
# email to …" is theirs).
_TASK = re.compile(
    r"^\s*(?:(?:in|on|for|at)\s+(?:the|this|that|my|our)\s+[\w -]{1,30}?[,:]\s*)?(?:please\s+)?"
    r"(?:change|update|set|move|switch|swap|replace|rename|add|remove|delete|put|send|forward|fix|make|write|draft"
    r"|translate|book|cancel)\s+(?:the|this|that|these|those|it)\b",
    re.IGNORECASE,
)


def a_task(sentence: str) -> bool:
    """Whether the statement asks the assistant to do something to one thing, and says nothing of the user's own."""
    task = _TASK.match(sentence)
    return task is not None and not _THE_USER.search(sentence, task.end())


# A name put after a clause for what it names ("bought my mum a new phone, an iPhone 15", "I have a shellfish allergy,
# a serious one"): no statement of its own.
_APPOSITION = re.compile(r"^\s*an?(?:\s+[\w'-]+){1,3}\s*[.!]?\s*$", re.IGNORECASE)


def an_apposition(clause: str) -> bool:
    """Whether a clause only names again what the clause before it names, as a noun phrase of its own."""
    return bool(_APPOSITION.match(clause))


def asks(clause: str) -> bool:
    """Whether a clause asks, requests or proposes ("can you …", "帮我…", "let's …", "change the sender to …"): it
    states nothing of the user's."""
    return bool(_ASK.match(clause) or _PROPOSAL.match(clause)) or is_question(clause) or a_task(clause)


# An ask to work on a text, and the text after its colon ("帮我翻译一下这句话：I love you", "Can you proofread this: I
# has been working here since 2019"): what follows is the ask's material, not a statement of the user's. Only a
# working of the text: what the user asks to be kept ("Remember this: my wife's birthday is 3 May") is theirs.
_ASK_AND_MATERIAL = re.compile(r"^(?P<ask>[^:：]{2,80}?)\s*[:：]\s*\S")
_TEXT_WORK_EN = r"translate|proofread|rewrite|rephrase|paraphrase|summari[sz]e|polish|reword|shorten"
_TEXT_WORK_ZH = r"翻译|润色|改写|总结|校对|缩写|扩写"
_WORKING_A_TEXT = re.compile(
    rf"\b(?:{_TEXT_WORK_EN}|correct|edit)\w*|{_TEXT_WORK_ZH}|修改|纠正|改(?:成|得|一下)", re.IGNORECASE
)
# The same told as an order, not a note: "Translate to French", "翻译一下"; not "Edit" nor "Correction", which head
# a user's own correction ("Correction: I live in Leeds").
_WORK_ON_THIS = re.compile(rf"(?:{_TEXT_WORK_EN})\b\s*\w|{_TEXT_WORK_ZH}", re.IGNORECASE)


def without_material(sentence: str) -> str:
    """The statement without the text an ask to work on a text gives after its colon ("帮我翻译一下这句话" of
    "帮我翻译一下这句话：I love you", "Translate to French" of "Translate to French: I have two cats")."""
    found = _ASK_AND_MATERIAL.match(sentence)
    if not found:
        return sentence
    ask = found.group("ask").strip()
    asked = (asks(ask) and _WORKING_A_TEXT.search(ask)) or _WORK_ON_THIS.match(ask)
    return ask if asked else sentence


# More than a discourse marker ("Also, what …?", "Oh, can you …?"): two words, or three Chinese characters.
_A_CLAUSE = re.compile(r"\w+\W+\w+|[\u3400-\u9fff]{3}")


def stated_before_ask(sentence: str) -> str | None:
    """What a question states before it asks ("I'm allergic to peanuts" of "I'm allergic to peanuts, so
    can you suggest a dessert?"): the clauses before the ask, or None when it only asks, or what it
    states is only imagined ("If I move to Berlin, would I need a visa?")."""
    if not is_question(sentence):
        return None
    cuts = list(_CLAUSE.finditer(sentence))
    if not cuts:
        return None
    ask = next((c for c in cuts if _ASK.match(sentence[c.end() :])), cuts[-1])
    stated = sentence[: ask.start()].strip()
    if _ASK.match(stated) or is_question(stated) or imagined(stated) or not _A_CLAUSE.search(stated):
        return None
    return stated


# What opens a turn without saying anything of its own: interjections and discourse markers, a closed
# class ("btw", "oh", "heads up:", "对了", "哈哈好的，"), and the asks to remember what follows ("remember
# that …", "记住…"). Not "also" nor "还有": those say a statement adds.
_OPENER = re.compile(
    r"^(?:\s*(?:(?:oh|ah|um+|uh|hmm+|well|so|and|anyway|anyways|actually|honestly|basically|btw|by the way|fyi"
    r"|hey|hi|hello|(?:quick )?update|(?:some |big |good )?news|heads[- ]up|quick note|just so you know|for the record"
    r"|(?:(?:quick |some |a bit of |for )?context|for reference)(?=\s*[:,，：—-])|fwiw"
    r"|as i said|again(?=\s*,)|ok(?:ay)?|yeah|yes|lol"
    r"|ha(?:ha)+|thanks|thank you|remember(?: that)?|keep in mind(?: that)?|don't forget(?: that)?"
    r"|(?:please )?note(?: that)?)"
    r"(?![\w-])|(?:哦|噢|嗯|啊|哈哈+|好的|好吧)(?=[\s,，:：!！.。]|哦|噢|嗯|啊|哈|好的|好吧)|对了|其实|顺便说一下|顺便提一下|顺便"
    r"|说起来|话说|(?:跟|和)你(?:说|讲)(?:一下|一声|个事儿?|件事儿?)?|告诉你(?:一下|一声|个事儿?|件事儿?|一?个好消息)?"
    r"|有个(?:好)?消息|记住|记得|别忘了)"
    r"[\s,，:：!！.。-]*)+",
    re.IGNORECASE,
)


def without_opener(sentence: str) -> str:
    """The statement without the interjections and discourse markers it opens with ("btw I'm
    left-handed" → "I'm left-handed"), unless nothing else is left. What is left starts as a sentence does:
    the embedder reads "no peanuts for me" and "No peanuts for me" apart."""
    rest = _OPENER.sub("", sentence, count=1)
    if rest == sentence or not _A_CLAUSE.search(rest):
        return sentence
    return rest[:1].upper() + rest[1:]


# What closes a turn as an aside, the same closed class, and with it only why it is said ("I'm vegetarian btw, for
# the recipe ideas", "I'm diabetic, just so you know", "我对猫过敏，顺便说一下"): not a reason of the statement's
# own ("since my iron got low").
_CLOSER = re.compile(
    r"[\s,，]+(?:btw|by the way|fyi|fwiw|just so you know|for the record|for (?:some )?context|for reference|lol"
    r"|ha(?:ha)+|哈哈+|顺便(?:说|提)一下|(?:跟|和)你(?:说|讲)一声|告诉你一声)"
    r"(?:[\s,，]+(?:for|in case|since you|so you)\b[^.!?。！？]*)?[\s.!！。~]*$",
    re.IGNORECASE,
)


def without_closer(sentence: str) -> str:
    """The statement without an aside it closes with ("I'm vegetarian btw, for the recipe ideas" → "I'm
    vegetarian"), unless nothing else is left: said around a fact, the aside draws its vector away from the same
    fact said plainly."""
    rest = _CLOSER.sub("", sentence, count=1)
    return rest if rest != sentence and _A_CLAUSE.search(rest) else sentence


def clauses(sentence: str) -> list[str]:
    """The clauses of a statement that joins several ("Claire left, so my manager is Hassan now"), each
    without its opening conjunction; [] when it has one clause only. A name and what it is to the user, put
    beside it ("Ollie, my four-year-old, is obsessed with dinosaurs"), are one clause: "Ollie is my four-year-old"."""
    parts = [without_opener(part.strip()) for part in _CLAUSE.split(sentence)]
    parts = [p for p in _appositives_joined(parts) if _A_CLAUSE.search(p)]
    return parts if len(parts) > 1 else []


# A role the user speaks in, opening a statement or a clause: "As an emergency nurse I'm used to chaos", "being a
# pharmacist, …", "作为急诊护士我早就习惯混乱了", "身为律师，…", or standing alone as a clause ("As a nurse working
# nights, how do I sleep by day?"). Before the user (I, my, me; 我) when more follows, so not "As a kid, my brother …"
# nor "as you know".
_AS_A_ROLE = re.compile(
    r"^\s*(?P<en_said>(?:as|being)\s+(?P<en>an?\s+(?:[\w'-]+\s+){0,3}?[\w'-]+))"
    r"(?:\s*,?\s+(?P<en_rest>(?:I|I'\w+|my|me)\b.*)|[\s,.!]*)$"
    r"|^\s*(?P<zh_said>(?:作为|身为)(?P<zh>[\u4e00-\u9fff]{1,8}?))(?:[，,]?\s*(?P<zh_rest>我.*)|[\s，,。！]*)$",
    re.IGNORECASE | re.DOTALL,
)


class Role(NamedTuple):
    """A role the user speaks in (``as_a_role``)."""

    statement: str  # as a statement of its own: "I'm an emergency nurse", "我是急诊护士"
    rest: str  # what the user says in it: "I'm used to chaos"; "" when the role stands alone
    said: str  # as the user said it: "As an emergency nurse"


def as_a_role(sentence: str) -> Role | None:
    """The role a statement of the user's is said in, it or one of its clauses: ("I'm an emergency nurse", "I'm used to
    chaos", "As an emergency nurse") of "As an emergency nurse I'm used to chaos"; ("我是急诊护士", "我早就习惯混乱了",
    "作为急诊护士") of "作为急诊护士我早就习惯混乱了". Said as a role, it is said again. A clause that is only a role
    opens nothing of the user's ("As a result, the trip was off")."""
    whole = opens_in_role(sentence)
    in_a_clause = (role for part in clauses(sentence) if (role := opens_in_role(part)) and role.rest)
    return whole or next(in_a_clause, None)


def opens_in_role(clause: str) -> Role | None:
    """The role ``clause`` itself opens with, or is (``as_a_role``); a past ("As a kid I …") says nothing of now."""
    found = _AS_A_ROLE.match(clause)
    if found is None or in_the_past(clause):
        return None
    if found.group("en"):
        return Role(f"I'm {found.group('en')}", found.group("en_rest") or "", found.group("en_said"))
    return Role(f"我是{found.group('zh')}", found.group("zh_rest") or "", found.group("zh_said"))


# A name (not "I"), and a short phrase of the user's after it that says what that one is to them.
_A_NAME = re.compile(rf"(?!I\b){_NAME}")
_APPOSITIVE = re.compile(r"(?:my|our)(?:\s+[\w'-]+){1,3}", re.IGNORECASE)


def _appositives_joined(parts: list[str]) -> list[str]:
    joined: list[str] = []
    for part in parts:
        if joined and _A_NAME.fullmatch(joined[-1]) and _APPOSITIVE.fullmatch(part):
            joined[-1] = f"{joined[-1]} is {part}"
        else:
            joined.append(part)
    return joined


# The reason a statement gives after its fact: "because …", "cause …". Not "since", which as often tells a time
# ("I haven't touched a cigarette since I quit in May").
_REASON = re.compile(r"[\s,]+(?:because|'?cause|cos)\b\s*(?:of\s+)?(.*)$", re.IGNORECASE)


def without_reason(clause: str) -> str:
    """The clause without the reason it gives after its fact ("I don't run anymore" of "I don't run anymore cause
    my doctor told me to stop"), or the clause itself: the reason draws its vector away from the fact it changes."""
    rest = _REASON.sub("", clause, count=1)
    return rest if _A_CLAUSE.search(rest) else clause


def without_clause(sentence: str, clause: str) -> str | None:
    """The statement without one of its clauses (``clauses``) or a clause's fact without its reason
    (``without_reason``): the other clauses, and that reason as a statement ("I'm Muslim" of "I don't eat pork because
    I'm Muslim"), joined with a comma of its script; None when nothing else is left."""
    rest = []
    for c in clauses(sentence) or [sentence]:
        if c != clause and without_reason(c) != clause:
            rest.append(c)
        elif c != clause and (reason := _REASON.search(c)):
            rest.append(reason.group(1))
    return ("，" if _CJK.search(sentence) else ", ").join(rest) or None


def about_user(sentence: str) -> bool:
    return bool(_ABOUT_USER.match(sentence))


# What a statement takes for granted of the user in passing: where they live, told as where they are ("it's freezing
# up here in Aberdeen", "here in Lisbon it's still warm"), and who someone named is to them ("my partner Leo is
# cooking", "my daughter Mia starts school").
_HERE_IN = re.compile(r"\bhere\s+in\s+((?-i:[A-Z])[\w-]*(?:\s+(?-i:[A-Z])[\w-]*)*)", re.IGNORECASE)
_KIN_NAMED = re.compile(
    rf"\bmy\s+((?:(?:little|big|older|younger|eldest|youngest|oldest|best)\s+)?{_PERSON_EN})[\s,]+((?-i:[A-Z])[\w'-]*)",
    re.IGNORECASE,
)


# And how many of their children or animals there are ("my two cats are fighting again", "我家两只猫又打架了").
_COUNT_EN = r"two|three|four|five|six|seven|eight|nine|ten|[2-9]"
_KIDS_EN = r"(?:kids|children|sons|daughters|boys|girls|twins|grandchildren|grandkids)"
_COUNTED_EN = re.compile(
    rf"\bmy\s+((?:{_COUNT_EN})\s+(?:(?:little|young|grown-up)\s+)?(?:{_KIDS_EN}|{_PET_EN}))\b", re.IGNORECASE
)
_COUNTED_ZH = re.compile(
    rf"我(?:家|的|家的)((?:[两三四五六七八九]|[2-9])(?:只|个|条|匹)(?:{_PET_ZH}|孩子|娃|儿子|女儿|闺女|小孩))"
)


# Who someone named is to the user, when they are family or a partner ("my boyfriend Luke and I are off to Rome"): a
# standing fact of the user's own, whatever else the statement tells.
_FAMILY_EN = (
    r"(?:wife|husband|partner|boyfriend|girlfriend|fianc[eé]e?|son|daughter|mum|mom|dad|mother|father|brother|sister"
    r"|stepson|stepdaughter)"
)


def family_named(sentence: str) -> list[str]:
    """Of what ``sentence`` takes for granted (``presupposed``), who someone named is to the user when they are family
    or a partner: "Luke is my boyfriend" of "my boyfriend Luke and I are going to Rome in May"; not "Dave is my
    colleague" of "my colleague Dave is allergic to everything"."""
    return [f"{name} is my {kin}" for kin, name in _KIN_NAMED.findall(sentence) if re.fullmatch(_FAMILY_EN, kin, re.I)]


def presupposed(sentence: str) -> list[str]:
    """What ``sentence`` takes for granted of the user, each as a statement of its own: "I live in Aberdeen" of "it's
    freezing up here in Aberdeen", "Leo is my partner" of "my partner Leo is cooking tonight", "I have two cats" of
    "my two cats are fighting over the sofa"."""
    here = [f"I live in {place}" for place in _HERE_IN.findall(sentence)]
    counted = [f"I have {many}" for many in _COUNTED_EN.findall(sentence)]
    counted += [f"我有{many}" for many in _COUNTED_ZH.findall(sentence)]
    return here + [f"{name} is my {kin}" for kin, name in _KIN_NAMED.findall(sentence)] + counted


def names_a_relation(sentence: str) -> bool:
    """Whether the statement says who someone is to the user ("Ravi is my husband", "我女朋友叫小雨")."""
    return bool(_NAMES_A_RELATION.match(sentence))


# How to reach the user, told with its value: "My email is tom.h@yahoo.com", "my mobile number is 07700 900123",
# "我的手机号是 13912345678", "我微信号是 lily_2020". The value is an address: an @, a handle's underscore or a run of
# digits.
_CONTACT = re.compile(
    r"^\s*(?:my|our)\s+(?:\w+\s+){0,2}?(?:e-?mail(?: address)?|phone(?: number)?|mobile(?: number)?|number|whatsapp"
    r"|wechat(?: id)?|handle|username)\s*(?:is|'s|:)\s*(?P<value>\S+(?:[\s-]\d+)*)"
    r"|^\s*我的?(?:\w{0,4}?)(?:邮箱|手机号?码?|电话号?码?|号码|微信号?|QQ号?)\s*(?:是|[:：])?\s*(?P<zh>\S+(?:[\s-]\d+)*)"
    # how to reach the user, with the value: "you can reach me on +44 …", "email me at …", "有事打我电话 139…"
    r"|^\s*(?:you\s+can\s+|feel\s+free\s+to\s+|just\s+|best\s+to\s+)?(?:reach|contact|call|ring|text|email|e-mail"
    r"|message|whatsapp)\s+me\s+(?:on|at|via)\s+(?P<reach>\S+(?:[\s-]\d+)*)"
    r"|^\s*(?:有事)?(?:可以)?(?:联系|打给?|拨打)我(?:的)?(?:电话|手机|邮箱)?\s*[:：]?\s*(?P<zh_reach>\S+(?:[\s-]\d+)*)",
    re.IGNORECASE,
)


def an_address(value: str) -> bool:
    """Whether ``value`` is an email address, a handle or a phone number (six digits or more)."""
    return "@" in value or "_" in value or sum(c.isdigit() for c in value) >= 6


def names_an_address(sentence: str) -> bool:
    """Whether any word of the statement is an address, a handle or a phone number (``an_address``)."""
    return any(an_address(word) for word in sentence.split())


# A change of one of the user's contacts told by its kind, not of the device it rings nor of a part of it: "I changed
# my number", "my old email is dead", "got a new mobile number", "我换号了", "邮箱不用了"; not "my phone screen broke,
# got a new one", "I changed the signature on my emails", "我换了个邮箱客户端", "3号换了工位". Each kind's words.
_CONTACT_KINDS = {
    "phone": (r"(?:(?:phone|mobile|work|home|old|new)\s+){0,2}numbers?", r"(?:手机|电话)?号码?"),
    "email": (r"(?:(?:work|personal|old|new)\s+){0,2}e-?mails?(?:\s+address(?:es)?)?", r"邮箱"),
    "address": (r"(?:(?:home|postal|old|new)\s+){0,2}address(?:es)?", r"地址"),
    "handle": (r"(?:handle|username)s?", r"微信号?|QQ号?"),
}
_A_PART = r"\s+(?:signature|password|settings|client|app|provider|account|font|picture|photo|avatar|footer|theme|inbox)"
_ZH_ENDS_HERE = r"(?=了|[，,。.！!？?]|$)"


def _contact_changed(en: str, zh: str) -> re.Pattern[str]:
    return re.compile(
        rf"\b(?:chang|switch|swapp?|updat)(?:e|es|ed|ing)\s+(?:my|our)\s+(?:{en})\b(?!{_A_PART})"
        rf"|\b(?:my|our)\s+(?:{en})\s+(?:has\s+|have\s+)?(?:changed|is\s+(?:dead|gone)|no\s+longer\s+works?"
        r"|(?:doesn't|does not|don't)\s+work)"
        rf"|\b(?:got|have)\s+a\s+new\s+(?:{en})\b(?!{_A_PART})"
        rf"|(?<![\d一二三四五六七八九十])换(?:了个?|成)?(?:新的?)?(?:{zh}){_ZH_ENDS_HERE}"
        rf"|(?<![\d一二三四五六七八九十])(?:{zh})(?:已经)?(?:换了|改了|变了|不用了|停用了|注销了)",
        re.IGNORECASE,
    )


_CONTACT_CHANGED = {kind: _contact_changed(en, zh) for kind, (en, zh) in _CONTACT_KINDS.items()}
_CONTACT_NAMED = {kind: re.compile(f"{en}|{zh}", re.IGNORECASE) for kind, (en, zh) in _CONTACT_KINDS.items()}


def changes_a_contact(sentence: str) -> set[str]:
    """The kinds of the user's contacts the statement tells changed (``_contact_changed``)."""
    return {kind for kind, told in _CONTACT_CHANGED.items() if told.search(sentence)}


# Done for another person: "我给我妈换了个新手机号", "帮我爸改了邮箱", "I set up a new email for my dad".
_FOR_ANOTHER = re.compile(rf"(?:给|帮|替)(?:我的?|我们的?)?{_PERSON_ZH}|\bfor\s+{_MY_PERSON_EN}", re.IGNORECASE)


def changes_the_contact(old: str, new: str) -> bool:
    """Whether ``new`` tells that the contact ``old`` gives changed, by its kind ("I changed my number" beside "My
    number is 07700 900123", "我换号了" beside "我的手机号是…"): the words settle it, however the vectors read a
    number. Not another's ("My mum changed her number", "我给我妈换了个新手机号") nor another kind ("I changed my
    email" beside a number)."""
    if not states_a_contact(old) or about_someone_else(new) or _FOR_ANOTHER.search(new):
        return False
    gives = {kind for kind, named in _CONTACT_NAMED.items() if named.search(old)}
    return bool(changes_a_contact(new) & gives)


def states_a_contact(sentence: str) -> bool:
    """Whether the statement gives one of the user's contacts with its value ("My email is tom.h@yahoo.com",
    "我的手机号是 13912345678"): a standing fact, however the vectors read an address; not "My email is full"."""
    found = _CONTACT.match(sentence)
    return bool(found and an_address(next((v for v in found.groups() if v), "")))


def standing_instruction(sentence: str) -> bool:
    """Whether the statement tells the assistant how to answer or address the user from now on ("Please
    answer in Portuguese", "Call me Sam", "回答请用英文"), not what to do about one thing ("Reply to this
    email in French")."""
    return bool(_STANDING_INSTRUCTION.match(sentence)) and not _ONE_OFF.search(sentence)


# "The thesis deadline …": a thing named with "the", which an earlier statement may have called the user's.
_THE_THING = re.compile(r"^\s*the\s+(\w+)", re.IGNORECASE)
# A thing the user has: "I have a …", "I drive a …", "we bought an old …".
_HAS_A = r"(?:have|own|drive|ride|got|bought|use)\s+(?:an?|one|two|three|\d+)"
_PLAIN_WORD = r"(?!(?:with|for|at|to|in|on|of|the|from|by)\b)[\w-]+"


def refers_back(old: str, new: str) -> bool:
    """Whether ``new`` names with "the" a thing ``old`` calls the user's, with "my" or as one the user has
    ("The thesis deadline is June 1st" after "My thesis is due on 1 June", "the Focus is gone" after "I drive a
    2015 Ford Focus"): the user's thing, whoever else "the …" could be. Not a thing the user only meets
    ("the Board" of "I have a meeting with the Board")."""
    thing = _THE_THING.match(new)
    if thing is None:
        return False
    name = re.escape(thing.group(1))
    owned = rf"\b(?:my|our)\s+(?:\w+\s+){{0,2}}?{name}\b|\b(?:I|we)\s+{_HAS_A}\s+(?:{_PLAIN_WORD}\s+){{0,2}}?{name}\b"
    return re.search(owned, old, re.IGNORECASE) is not None


# A person or an animal of the user's named in a statement ("My girlfriend is Emma", "Ana is my sister", "I
# have a dog called Biscuit", "我女朋友叫小雨", "我养了一只猫叫豆豆"): in English a capitalised word that is not
# a pronoun, in Chinese what 叫 or 是 names, or what opens the sentence before "是我…" or ", 我的…".
_OF_THE_USERS = re.compile(
    rf"\b{_MY_PERSON_EN}|\b(?:my|our)\s+(?:\w+\s+){{0,2}}?{_PET_EN}\b"
    rf"|\b(?:have|has|got|adopted)\s+(?:an?|one|two|three|\d+)\s+(?:\w+\s+){{0,2}}?(?:{_PERSON_EN}|{_PET_EN})\b"
    rf"|我(?:的|有个|有一个|有)?{_WHICH_ZH}{_PERSON_ZH}|我(?:的|养了?\S{{0,2}}?){_PET_ZH}"
    # of a kind, named: "我的家庭医生是张医生" (not "我的手表是…": 表 is a cousin only before 哥, 姐 …)
    rf"|我的[\u4e00-\u9fff]{{1,2}}?{_PERSON_ZH}(?=是|叫)",
    re.IGNORECASE,
)
_CAPITALISED = re.compile(r"\b(?!(?:I|My|Our|The|We|He|She|They|His|Her|Their|It|Its)\b)[A-Z][a-z]+\b")
_NAMED_ZH = re.compile(
    r"(?:叫|是)([\u4e00-\u9fff]{2,3}?)(?=[。，,.!！\s]|$)|^\s*([\u4e00-\u9fff]{2,3}?)(?=是我|[，,]\s*我的?)"
)
_WITH_THE_USER_AFTER = re.compile(r"\s*(?:and|&)\s+(?:I|me)\b|\s*[和跟与同]我", re.IGNORECASE)
_TO_THE_USER = re.compile(r"\b(?:me|us)\b|我", re.IGNORECASE)  # what the person did to the user ("Zoe dumped me")


# The person named, referred back to after: the user's clause is about them too ("Dr Shah moved to a new surgery,
# I see her there now").
_BACK_TO_THEM = re.compile(r"\b(?:him|her|them|he|she|they)\b|他|她", re.IGNORECASE)


def about_someone_named(old: str, new: str) -> bool:
    """Whether ``new`` is about a person ``old`` names as one of the user's ("Emma changed her hair colour"
    after "My girlfriend is Emma"): someone else's, as "My girlfriend changed …" is. Not the two of them
    ("Emma and I broke up"), nor who that person is ("Emma is my girlfriend"), nor a statement of several
    clauses that brings the user in after the name: it may hold the user's own besides ("Claire left, so my
    manager is Hassan now"; but "小雪换了新工作，去了一家外企" is all hers, and so are "Dr Shah moved to a new surgery,
    I see her there now" and "张医生调到别的医院了，我以后去那边找她", which refer back to her)."""
    if not _OF_THE_USERS.search(old) or names_a_relation(new):
        return False
    several = bool(clauses(new))
    for name in _names(old):
        rest = new.lstrip()[len(name) :]
        done_to_the_user = _TO_THE_USER.search(_CLAUSE.split(rest, maxsplit=1)[0])  # in the name's own clause
        if new.lstrip().startswith(name) and not (_WITH_THE_USER_AFTER.match(rest) or done_to_the_user):
            return not (several and _THE_USER.search(rest) and not _BACK_TO_THEM.search(rest))
    return False


# A clause the user opens as its subject: "I …", "I'm …", "we're …", "我…" (not "my …": what is theirs may be
# another's).
_THE_USER_OPENS = re.compile(r"^\s*(?:(?:I|we)(?:'\w+)?\b|我)", re.IGNORECASE)


def the_users_own_after_another(sentence: str) -> list[str]:
    """The clauses after the first that the user says of themselves, in a statement that opens with someone or
    something else: "I'm driving a Kia Niro EV" of "the Focus is gone, I'm driving a Kia Niro EV", "we got the keys
    on Friday" of "the Edinburgh flat is finally ours, we got the keys on Friday". Not one that refers back to
    the other ("Dr Shah moved to a new surgery, I see her there now": about her too)."""
    if not about_someone_else(sentence):
        return []
    return [c for c in clauses(sentence)[1:] if _THE_USER_OPENS.match(c) and not _BACK_TO_THEM.search(c)]


def follows_anothers_move_to(old: str, sentence: str) -> bool:
    """Whether the statement opens with another person's change that names what ``old`` names ("my brother just
    moved to Edinburgh, so we're neighbours now" beside "I live in Edinburgh", "我妹妹搬到杭州了，我们成了邻居" beside
    "我住在杭州"): what the user then says of themselves follows from it and changes nothing of ``old``. Not a thing
    of the user's that ended ("the Brompton got nicked, so I take the bus now"): no person moved to it."""
    cut = clauses(sentence)
    if not cut:  # one clause: nothing of the user's follows
        return False
    first = cut[0]
    if not (_KIN.search(first) and tells_a_change(first)):
        return False
    named_zh = any(_CJK.match(pair) for pair in _content(old) & _content(first))  # a pair of characters both say
    return named_zh or any(re.search(rf"\b{re.escape(name)}\b", first) for name in _names(old))


def ends_what_it_names(old: str, new: str) -> bool:
    """Whether ``new`` tells that the user ended what ``old`` names, by its name: the two of them ("Tom and I
    called it quits", "Zoe dumped me", "我和李娜离了") or the user and it ("I ditched Chrome for Firefox", "I sold
    the Focus", "Traded the Focus in for a Tesla", "I closed my Nationwide account"). An ending told of something else
    ("I left my coat at Tom's"), or one the two do to a third thing together ("Sophie and I left the party early", "Tom
    and I sold the car"), is not."""
    for name in (re.escape(n) for n in _names(old) if n in new):
        ended = re.search(
            rf"\b{name}\s+(?:and|&)\s+I\b[^.;,]*?\b(?:{_ENDS_TOGETHER_EN})\b"
            rf"|\b{name}\s+(?:{_ENDS_EN})\s+(?:me|us)\b"
            rf"|\b(?:{_ENDS_EN})\s+(?:up\s+)?(?:with\s+|on\s+)?(?:the\s+|my\s+)?{name}\b"
            rf"|\b(?:traded|swapped|exchanged)\s+(?:in\s+)?(?:the\s+|my\s+|our\s+)?{name}(?:\s+in)?\s+for\b"
            rf"|\b(?:closed|cancell?ed|terminated)\s+(?:the\s+|my\s+|our\s+)?{name}\b"  # "closed my Nationwide account"
            rf"|[和跟与]{name}[^，。,.]{{0,4}}?(?:{_ENDS_ZH}|[分离散吹]了)|{name}[^，。,.]{{0,3}}?(?:甩了我|跟我分手)",
            new,
            re.IGNORECASE,
        )
        if ended:
            return True
    return False


# A return: "back at X", "back to X", "returned to X", "回到X", "搬回X".
_BACK_TO = r"\bback (?:at|to|in|into|with)\s+(?:the\s+)?|\breturn(?:ed|ing)? to\s+(?:the\s+)?|回到?"


def returns_to_what_it_names(old: str, new: str, kept: set[str]) -> bool:
    """Whether ``new`` tells a return to what ``old`` names (one of ``kept``) and ends nothing: "First week back
    at Deloitte after my leave" beside "I work at Deloitte", "We moved back to Leeds" beside "I live in Leeds".
    What holds holds again: no change of it. A change at the same place ("I'm a senior developer at Monzo now")
    is no return, nor is leaving it ("I went back to uni after leaving Deloitte")."""
    if not kept or not tells_a_change(new) or ends_a_state(new) or ends_what_it_names(old, new):
        return False
    return any(re.search(rf"(?:{_BACK_TO}){re.escape(v)}", new, re.IGNORECASE) for v in kept)


# A name a statement opens with ("Santander changed their app again"), and the user anywhere in it.
_OPENING_NAME = re.compile(r"\s*((?!(?:I|My|Our|We|The|It|This|That)\b)[A-Z][\w&'-]*(?:\s+[A-Z][\w&'-]*)*)")
_THE_USER = re.compile(r"\b(?:I|me|my|mine|myself|we|us|our|ours)\b|I'|我", re.IGNORECASE)


# What a condition or a moment said first still frames: after a condition, a consequence ("要是明天不下雨，我就去爬山",
# "If it's sunny tomorrow, I'll go hiking"; not "If you're picking restaurants, I'm vegetarian"); after a clause
# of this day, one that names nobody of its own, so goes on about it ("I'm so tired today, can't be bothered to
# cook", "今天太热了，不想出门"; not "I'm exhausted today, I have a newborn at home").
_CONSEQUENCE = re.compile(
    r"\b(?:will|would|could|might|may|probably|then|going to|gonna)\b|'ll\b|'d\b"
    r"|就(?!行|好|可以|够)|便|会|可能|也许|或许|大概",
    re.IGNORECASE,
)
_KIN = re.compile(rf"\b{_PERSON_EN}\b|{_PERSON_ZH}", re.IGNORECASE)
_SOMEONE = re.compile(rf"{_THE_USER.pattern}|{_KIN.pattern}|他|她", re.IGNORECASE)


def framed(sentence: str) -> bool:
    """Whether a condition, a moment or a stretch that ends soon frames some of the statement, so that its clauses
    are to be read alone within its scope (``clauses_alone``): "帮我安排下这周吧，我每周二和周四晚上要上日语课" is
    this week's request beside a standing fact."""
    return imagined(sentence) or of_the_moment(sentence) or for_a_while(sentence)


# "We" at a clause's opening, after someone else's news: the user with that person ("my best mate moved to Hackney
# too, we're neighbours now").
_WE_OPENING = re.compile(
    r"^\s*(?:so\s+|and\s+)?(?:now\s+)?(?:we|we're|we've|we'll|us)\b|^\s*(?:所以|现在)?(?:我们|咱们|我俩)", re.IGNORECASE
)


# A state said to hold now: a copula or the 了 of a new situation ("现在是部门主管了", "it's home now"), not what one
# wants or does at the moment ("现在只想睡觉", "现在还在地铁上").
_A_STATE = re.compile(r"\b(?:am|is|are)\b|'(?:m|s|re)\b|是|了\s*[。！!]?\s*$", re.IGNORECASE)


def clauses_alone(sentence: str) -> list[str]:
    """The clauses of ``sentence`` (``clauses``) less those a condition, a moment or a short stretch said before
    them frames: each of the rest says what it says alone. A clause that names the present as the time of a state
    it says is out of a moment's frame ("今天升职了，现在是高级工程师了"). A clause whose "we" takes in the person
    whose news the clause before it told stays with that clause, and so does one that names nothing of the user's
    after it ("我弟弟也来深圳了，在华为上班": the brother works there), or after a clause that opens with a thing's
    change ("我们家换了宽带，现在用电信的": the broadband's, not where the user lives) or tells what was done to a
    thing ("我把卧室重新刷了一遍漆，换成了浅灰色": the bedroom's colour)."""
    alone: list[str] = []
    condition = moment = False
    for part in clauses(sentence):
        now = says_what_holds_now(part) and not of_the_moment(part) and bool(_A_STATE.search(part))
        anothers = alone and about_someone_else(alone[-1]) and (_WE_OPENING.search(part) or not _THE_USER.search(part))
        a_things = alone and (a_things_change(alone[-1]) or done_to_a_thing(alone[-1])) and not about_user(part)
        if anothers or a_things:
            # As written: a name keeps its capital ("Max is so excited"), a word ``clauses`` began anew does not.
            alone[-1] = f"{alone[-1]}, {part if part in sentence else part[:1].lower() + part[1:]}"
        elif not ((condition and _CONSEQUENCE.search(part)) or (moment and not _SOMEONE.search(part) and not now)):
            alone.append(part)
        condition = condition or imagined(part)
        moment = moment or of_the_moment(part) or for_a_while(part)
    return alone


def about_what_it_names(old: str, new: str) -> bool:
    """Whether ``new`` is about an organisation, a place or a thing ``old`` names, and not the user at all
    ("Santander changed their app again" beside "I bank with Santander"): its news, never a change of the
    user's fact. "Spotify laid me off" and "Santander is my bank" are the user's."""
    opening = _OPENING_NAME.match(new)
    return bool(opening and opening.group(1) in old and not _THE_USER.search(new))


# Kin words that name one relation: "我老公" and "我先生" are the same person, and so are "my mum" and "my mother".
_ONE_RELATION = {
    **dict.fromkeys(("老公", "先生", "丈夫"), "husband"),
    **dict.fromkeys(("老婆", "太太", "妻子"), "wife"),
    **dict.fromkeys(("女儿", "闺女"), "daughter"),
    **dict.fromkeys(("男朋友", "男友"), "boyfriend"),
    **dict.fromkeys(("女朋友", "女友"), "girlfriend"),
    **dict.fromkeys(("mom", "mum", "mother"), "mother"),
    **dict.fromkeys(("dad", "father"), "father"),
}


def the_same_person(old: str, new: str) -> bool:
    """Whether two statements about others of the user's are about the same one: a name or a kin word in
    common, or two words of one relation ("My son Theo has a nut allergy", "Theo, my son, is allergic to nuts"; "My
    sister lives in Rome", "My sister's home is in Rome"; "我老公是厨师", "我先生在酒店当厨师"; not "My brother …"),
    and no name in each that the other lacks ("My sister Ana …", "My sister Eva …")."""
    kin = _relations(old) & _relations(new)
    said, says = _names(old), _names(new)
    return bool(said & says or kin) and not (said - says and says - said)


def _relations(sentence: str) -> set[str]:
    return {_ONE_RELATION.get(k.lower(), k.lower()) for k in _KIN.findall(sentence)}


def _names(sentence: str) -> set[str]:
    zh = {name for m in _NAMED_ZH.finditer(sentence) for name in m.groups() if name}
    return set(_CAPITALISED.findall(sentence)) | zh


def news_of_what_it_names(old: str, new: str) -> bool:
    """Whether ``new`` opens with what ``old`` names and tells that thing's news, not a change of the user's fact
    ("钉钉又改版了" beside "我工作用钉钉", "马自达的4S店搬到郊区去了" beside "我开的是马自达3"): the Chinese of
    ``about_what_it_names``. Chinese names nothing with a capital, so the name is an opening of ``new`` that
    ``old`` says too: its first two characters, which any longer opening ``old`` says begins with, or which
    abbreviate a name ``old`` says (招行 of 招商银行, 北大 of 北京大学: the first of each word). Chinese drops
    the user a clause is said of, so the user is in it, and it is no news of the thing, when it says what holds
    now ("嘉年华处理掉了，现在开起亚"), tells an ending ("捷安特卖掉了": the user sold it), names an address or
    a number for it ("手机号换成138…了") or names when, as a habit's change does ("瑜伽课改到周四了"). What it
    says may still be the same again."""
    name = _OPENING_NAME_ZH.match(new)
    if not name or _THE_USER.search(new) or _NOW_WORD.search(new) or _WHEN_ZH.search(new):
        return False
    if ends_a_state(new) or an_address(new):
        return False
    opening = name.group(1)[:2]
    return len(opening) == 2 and bool(re.search(rf"{re.escape(opening[0])}.{{0,2}}{re.escape(opening[1])}", old))


# The opening words of a Chinese statement, not those that frame it (when, who, how): a thing or a name.
_OPENING_NAME_ZH = re.compile(r"\s*(?![我你他她它这那每最现今明昨前后])([\u3400-\u9fff][\u3400-\u9fffA-Za-z0-9]*)")


# Another one told by "a" ("A new Greggs opened at the end of my street", "A friend of mine is a dentist"), not a
# time ("A week ago I …") nor one that does something to the user ("a local bakery hired me").
_ANOTHER_BY_A = re.compile(
    r"^\s*an?\s+(?!(?:week|month|year|day|few|couple|bit|lot|while|quick|little|long|short|fortnight|decade|minute"
    r"|moment|number)\b)\w+",
    re.IGNORECASE,
)


def about_someone_else(sentence: str) -> bool:
    """Whether the statement's subject is another person or thing ("My sister moved …", "公司的电话换了"),
    not who that person is to the user ("My sister is called Ana"), nor the two of them ("My wife and I …"), nor
    what people at large call or make the user ("Everyone at work calls me Jules", "大家都叫我小胖"), nor what another
    says of the user ("医生说我的血压控制得还行")."""
    if _AT_LARGE_TO_THE_USER.match(sentence) or _SAYS_OF_THE_USER.match(sentence):
        return False
    another = _SOMEONE_ELSE.match(sentence) or (_ANOTHER_BY_A.match(sentence) and not _TO_THE_USER.search(sentence))
    return bool(another) and not (names_a_relation(sentence) or _WITH_THE_USER.match(sentence))


def news_of_someone_else(sentence: str) -> bool:
    """Whether the statement tells what happened or will happen to another person ("My uncle just got a
    job in Dubai", "My aunt switched to a vegan diet", "My son lost a tooth", "我侄子秋天要上大学了"): their
    news, not a standing fact of the user's. Who they are to the user and how they are ("My wife is a
    pharmacist", "我男朋友叫小刚": 刚 is "just" only where it is no name's) is not news, nor is a statement that goes
    on with the user's own ("我老公换了工作，我们搬到了杭州": ``the_users_own_after_another``)."""
    subject = _ANOTHER_PERSON.match(sentence)
    told_of_the_user = _TO_THE_USER_FIRST.match(sentence) or _SAYS_OF_THE_USER.match(sentence)
    if subject is None or _WITH_THE_USER.match(sentence) or told_of_the_user or the_users_own_after_another(sentence):
        return False
    changed = tells_a_change(sentence)
    if names_a_relation(sentence) and not changed:
        return False
    told = changed or _TOLD_AS_NEWS.search(sentence)
    return bool(told or _PAST_EVENT.match(sentence, subject.end()))


# Those outside the user's family: a friend, a colleague, a neighbour, whoever the user lives or works beside.
_ACQUAINTANCE_EN = (
    r"(?:friend|bestie|mate|pal|buddy|boss|manager|supervisor|colleague|co-?worker|teammate|neighbou?r|room-?mate"
    r"|flatmate|classmate|client|landlord)s?"
)
_ACQUAINTANCE_ZH = (
    r"(?:朋友|闺蜜|发小|同事|老板|领导|上司|主管|经理|邻居|室友|舍友|同学|客户|队友|房东|师兄|师姐|师弟|师妹"
    r"|下属|实习生)"
)
_AN_ACQUAINTANCE = re.compile(
    rf"^\s*(?:my|our)\s+(?:\w+\s+){{0,2}}?{_ACQUAINTANCE_EN}\b|^\s*(?:我的?|我们的?){_WHICH_ZH}{_ACQUAINTANCE_ZH}",
    re.IGNORECASE,
)


def an_acquaintances_own(sentence: str) -> bool:
    """Whether the statement is about someone outside the user's family (a friend, a colleague, a neighbour …) and
    the user is nowhere in the rest of it: that person's fact, however lasting ("My colleague Dan is allergic to
    shellfish, so the team lunch needs to avoid it", "我同事对海鲜过敏，聚餐老是很麻烦"), not the user's. Who they
    are to the user is the user's ("My manager is Tom"), and so is what they do to or with the user ("my manager gave
    me a new territory", "我朋友搬到我家附近了"). A family member's is the household's ("我老公是医生，经常值夜班")."""
    opening = _AN_ACQUAINTANCE.match(sentence)
    if opening is None:
        return False
    return not names_a_relation(sentence) and not _THE_USER.search(sentence, opening.end())


# And those a school or a workplace has: someone new among them arrives in the user's life, and changes none of it.
_AROUND_EN = (
    rf"(?:{_ACQUAINTANCE_EN}|(?:head\s*)?teachers?|principals?|head(?:master|mistress)(?:es|s)?|coach(?:es)?|tutors?"
    r"|mentors?|doctors?|gps?|lecturers?|professors?|interns?|trainees?|apprentices?|ceos?|directors?)"
)
_AROUND_ZH = rf"(?:{_ACQUAINTANCE_ZH}|校长|老师|班主任|医生|教练|导师|总监|总经理|主任|院长)"
_SOMEONE_NEW = re.compile(
    rf"\bnew\s+(?:\w+\s+)?{_AROUND_EN}\b|新来(?:了)?的?(?:个|一个|位|一位)?{_AROUND_ZH}|来了(?:个|一个|位|一位)?新的?{_AROUND_ZH}"
    rf"|新{_AROUND_ZH}",
    re.IGNORECASE,
)
_THE_USER_IS_NEW = re.compile(
    r"\b(?:I'm|I am|I've become|I became|as)\s+(?:the|a|their|our)\s+new\b|我(?:是|成了|当上?了?)(?:新的?|新来的)",
    re.IGNORECASE,
)


def someone_new_arrives(old: str, new: str) -> bool:
    """Whether ``new`` tells of someone new around the user (a new head teacher, a new colleague, "新来了个校长") beside
    a fact that names no one of the user's: their arrival, no change of it ("we've got a new head teacher starting in
    January" beside "I teach year 4 at a primary school"). Beside who someone is to the user ("My boss is Claire") a
    new one may be its new value, and the user may be the new one ("I'm the new head of year")."""
    if not _SOMEONE_NEW.search(new) or _THE_USER_IS_NEW.search(new):
        return False
    return not (names_a_relation(old) or about_someone_else(old))


def is_question(sentence: str) -> bool:
    return bool(_QUESTION.search(sentence))


def in_the_past(sentence: str) -> bool:
    return bool(_PAST.search(sentence))


def imagined(sentence: str) -> bool:
    """Whether the statement is a condition, a counterfactual, a wish or a maybe, not what holds."""
    return bool(_IMAGINED.search(sentence))


def intends(sentence: str) -> bool:
    """Whether the statement tells what the user means to do, and nothing that holds now or has changed
    already: what a clause tells before its "plan to" or "打算" is not planned ("I quit Deloitte last month
    and I'm planning to travel" tells a change)."""
    planned = False
    for part in clauses(sentence) or [sentence]:
        intent = _INTENT.search(part)
        if holds_now(part) or says_it_changed(part[: intent.start()] if intent else part):
            return False
        planned = planned or intent is not None
    return planned


def goes_on(sentence: str) -> bool:
    """Whether the statement says that something holds still, and tells no change, nor sets anything against
    it ("I still love Oslo, but we moved to Bergen"; "Priya and I are still close, but we called off the
    engagement")."""
    still = _GOES_ON.search(sentence)
    if still is None or _BUT.search(sentence, still.end()):
        return False
    return not says_it_changed(sentence)


def held_for_long(sentence: str) -> bool:
    """Whether the statement says what it tells has held for long ("I've been plant-based for years", "我一直支持
    湖人"), and tells no change: beside what the user said before, it held then too."""
    return bool(_HELD_LONG.search(sentence)) and not says_it_changed(sentence)


def feels_about_what_holds(old: str, new: str) -> bool:
    """Whether ``new`` tells how the user feels ("I don't enjoy teaching anymore", "我不喜欢上海了") beside an
    ``old`` that states what holds, neither a feeling nor a denial ("I'm a teacher", "我在上海工作"): a feeling
    about a fact is never a new value of it. "我喜欢吃辣" beside "我不吃辣" may be."""
    return bool(_FEELS.match(without_opener(new))) and not (_FEELS.match(without_opener(old)) or denies(old))


def make_believe(sentence: str) -> bool:
    """Whether the statement opens a story, a game or a role rather than saying what holds."""
    return bool(_MAKE_BELIEVE.match(sentence))


# What holds for a stretch that ends soon ("I'm in Rome until Sunday", "For the next two weeks I'm based in the Paris
# office", "这几天先用我老婆的旧手机", "我暂时向李总汇报"): how long it lasts, told by a closed class of the grammar.
# In English only of a state in the present ("I'm cycling in this week"; "We keep logs in Loki for 30 days" is a
# rule, "I reorganised my projects over the weekend" an event), unless it says so itself ("for now"). "这周" or
# "这个月" bounds a state in the present too ("我这个月在深圳驻场"); with an event, it dates it. "这周五" is a day.
# A stretch is no bound of what has lasted that long ("I've lived here for two weeks", "我在这住了两周").
_FOR_A_WHILE_EN = re.compile(
    r"\bfor (?:the (?:next|coming) |a |one |two |three |four |a few |a couple of |\d+ )(?:\w+ )?(?:days|weeks|nights)\b"
    r"|\bfor (?:a|one) (?:week|night)\b|\b(?:this|next) (?:week(?:end)?|month)\b"
    rf"|\b(?:until|till|til) (?:(?:next |this )?{_WEEKDAY}|the weekend|next week"
    r"|the end of (?:the|this) (?:week|month))\b"
    r"|\bover (?:christmas|easter|the holidays|the weekend|new year)\b",
    re.IGNORECASE,
)
_FOR_NOW = re.compile(
    r"\bfor now\b|\bfor the time being\b|\btemporarily\b"
    r"|这几天|这两天|暂时|临时|先(?=[用坐住开骑搭借])|这(?:周(?![一二三四五六日天])|个?星期|个?礼拜|个?周末|个月)",
    re.IGNORECASE,
)
_IN_THE_PRESENT_EN = re.compile(r"\b(?:i'm|i am|we're|we are)\b", re.IGNORECASE)
_LASTED = re.compile(r"(?:'ve|\bha(?:ve|s))\s+(?:\w+\s+)?(?:been|\w+ed)\b|了|过", re.IGNORECASE)
_SENTENCE_OR_CLAUSE = re.compile(r"[,，;；:：.?!。？！]")


def for_a_while(sentence: str) -> bool:
    """Whether the statement tells what holds for a stretch that ends soon and no change of state: a stay, a
    stand-in, a detour, which changes no standing fact ("I'm staying at my parents' for a few days" beside "I
    live in Manchester"). Clause by clause: "车送去保养了，这周先坐地铁上班" bounds what follows the car's service."""
    if tells_a_change(sentence):
        return False
    return any(
        not _LASTED.search(part)
        and bool(_FOR_NOW.search(part) or (_FOR_A_WHILE_EN.search(part) and _IN_THE_PRESENT_EN.search(part)))
        for part in _SENTENCE_OR_CLAUSE.split(sentence)
    )


# What one says one is doing or where one is: the present progressive ("I'm queueing at the post office", "we're
# renovating a farmhouse"), a state of being somewhere or at something ("I'm on hold", "I'm in sales"), and
# Chinese 在 / 正在 before the verb or the place ("我在洗碗", "我在京东做采购"). The form says nothing of how long:
# it is the same for this minute and for a stretch of a life, so it only marks what the ongoing model weighs.
# Not 在乎 / 在意 (to care), a verb of its own.
_IN_PROGRESS = re.compile(
    r"^(?:(?:i|we)(?:'m|'re|\s+am|\s+are)\s+(?:(?:just|currently|still|now|busy|literally|actually|already)\s+)*"
    r"(?:[a-z]+ing|at|on|in|out|off|stuck)\b"
    r"|(?:just|currently|busy|still)\s+[a-z]+ing\b"
    r"|我们?(?:正在|正|在(?![乎意]))|正在)",
    re.IGNORECASE,
)


def in_progress(sentence: str) -> bool:
    """Whether the statement says what the user is doing or where they are now, in the progressive ("I'm charging
    my phone", "I'm training for a triathlon", "我在排队", "我在读研"): whether that lasts is the ongoing model's to
    weigh, not this form's."""
    return bool(_IN_PROGRESS.search(without_opener(sentence)))


def of_the_moment(sentence: str) -> bool:
    """Whether the statement is anchored to this day or moment ("I'm shattered today", "Today I had tea
    instead"). What such a statement tells holds then only; whether it also begins what lasts ("Today was
    my first shift") is ``tells_a_change``'s to say."""
    return bool(_OF_THE_MOMENT.search(sentence))


def adds_to(sentence: str) -> bool:
    """Whether the statement says it adds one more (an additive "also", "too", "也"); not an ending told as one
    more ("I've stopped eating fish as well"), which may end a fact."""
    return bool(_ADDITIVE.search(sentence)) and not ends_a_state(sentence)


def tells_a_change(sentence: str) -> bool:
    """Whether the statement tells that something began, ended or moved ("I quit …", "我搬出来了")."""
    return bool(_CHANGE_OF_STATE.search(sentence))


# A denial just before a word of a change: "I'm not moving …", "we never switched …", "I didn't end up moving",
# "我没搬到上海", "我不换了".
# "anymore", "no longer" and 不再 are no change denied but the aspect of an end ("I'm not a barista anymore").
_DENIED_JUST_BEFORE = re.compile(r"(?:n't|\b(?:not|never))\s+(?:\w+\s+){0,2}$|[不没](?:有|再)?$", re.IGNORECASE)
_AN_END_BY_DENIAL = re.compile(r"no longer|any ?more|不再", re.IGNORECASE)


def denies_a_change(sentence: str) -> bool:
    """Whether every change the statement tells is denied ("I'm not moving to Berlin after all", "我最后没搬到上海"):
    what held still does."""
    told = list(_CHANGE_OF_STATE.finditer(sentence))
    return bool(told) and all(
        _DENIED_JUST_BEFORE.search(sentence[: m.start()]) and not _AN_END_BY_DENIAL.fullmatch(m.group()) for m in told
    )


# Chat drops the "I" of what the speaker did ("moved to Lewisham last weekend", "finally quit my job at Sky"): an
# English change told by a verb in the past at the opening, nothing before it but adverbs of time, is the speaker's.
_DROPPED_SUBJECTS_CHANGE = re.compile(
    r"(?:(?:just|finally|also|recently|then|officially)\s+)*"
    r"(?=(?:\w+ed|quit|left|sold|began|became|got|gave|went|cut|split|broke)\b)"
    rf"(?:{_CHANGE_OF_STATE.pattern})",
    re.IGNORECASE,
)


def with_dropped_subject(sentence: str, before: str | None) -> str:
    """``sentence`` with the "I" chat dropped before the change it tells said again ("moved to Lewisham last weekend"
    → "I moved to Lewisham last weekend"), so it reads as the user's own statement does; as it is when it has a
    subject, or when ``before``, the sentence said before it in the turn, is about someone else ("My sister had a
    baby. Moved to Leeds too.": the subject may be hers)."""
    if about_user(sentence) or (before is not None and about_someone_else(before)):
        return sentence
    if not _DROPPED_SUBJECTS_CHANGE.match(sentence):
        return sentence
    return f"I {sentence[:1].lower()}{sentence[1:]}"


def ends_a_state(sentence: str) -> bool:
    """Whether the statement tells that something ended ("I quit smoking", "我和女朋友分手了")."""
    return bool(_ENDING.search(sentence))


def denies_having(old: str, new: str) -> bool:
    """Whether ``new`` denies having what ``old`` says the user has ("I don't have children" beside "I
    have two kids"): a contradiction, however alike their vectors, never the same fact said again."""
    return bool(_HAVING.search(old)) and not denies(old) and bool(_NOT_HAVING.search(new))


def done_to_a_thing(sentence: str) -> bool:
    """Whether the change the statement tells was done to a thing of the user's ("I changed the tyres on
    my car", "我把牛奶换成了燕麦奶"; whatever 把 puts before its verb is a thing done to: "我把车送去保养了")
    rather than to what holds of them: no new value of a fact about the user, unless it names one."""
    return bool(_DONE_TO_A_THING.search(sentence)) and not (ends_a_state(sentence) or _WORKS_FOR.search(sentence))


def named_things_done_to(sentence: str) -> set[str]:
    """The names of the user's things the statement tells were changed ("Duolingo" in "I switched my Duolingo to
    the Mexican course")."""
    return set(_A_NAMED_THING_DONE_TO.findall(sentence))


# A word of the older statement put before a thing as its owner: "the Civic's brakes", "Biscuit's food",
# "雅阁的雨刮器", "QQ的昵称". Not "Anna's moving in" nor "Anna's been …", where "'s" is "is" or "has".
_OWNED_EN = re.compile(
    r"\b(\w{3,})(?:'s|’s)\s+(?!(?:a|an|the|not|been|got|gone|just|now|also|still|always|never|back|here|there"
    r"|\w+ing|\w+ed)\b)\w",
    re.IGNORECASE,
)
_OWNED_ZH = re.compile(r"([\u4e00-\u9fffA-Za-z]{2})的")
# Where a move goes: "I've moved to Google's Zurich office", "我转到了百度的自动驾驶团队" name a new place of
# what the older fact names, not a thing of it.
_TOWARDS = re.compile(r"\b(?:to|into|onto)\s+(?:the\s+)?$|[到去进入在]了?$", re.IGNORECASE)
# The named thing itself, or a part of it named after it, set to a state it keeps being: "I switched Firefox to
# dark mode", "I changed the Gmail layout to compact view", "我把Firefox调成深色模式". A value that replaces another
# comes after "from" or stands alone ("switched from Firefox to …", "switched to Chrome"); the Chinese verbs are
# those of setting, not 换成, which replaces ("我把iPhone换成了华为").
_SET_ITSELF = re.compile(
    rf"\b(?i:{_CHANGING_EN}ed|set|turned)\s+(?i:(?:my|the|our)\s+)?({_NAME})(?:\s+[a-z]+)?\s+(?i:to|into)\b"
    r"|把([A-Za-z][\w .+-]*?|[\u4e00-\u9fff]{2,4}?)\s*(?:调|设置?)(?:成|为|到)"
)


# A part of a named thing, named after it, changed in place: "I changed my Spotify profile picture", "I reset the
# Netflix password". Not where it goes on ("I moved my Monzo savings to Starling").
_ONWARDS = r"(?:to|for|with|over|into|from)\b"
# The named thing a part is named after, and its "'s": "my Spotify", "the VS Code", "Biscuit's".
_NAMED_OWNER = rf"(?i:(?:my|the|our)\s+)?({_NAME})(?:'s)?"
_A_PART_CHANGED = re.compile(
    rf"\b(?i:changed|updated|reset|tweaked|redid|redesigned|renamed)\s+{_NAMED_OWNER}"
    rf"\s+(?>(?!{_ONWARDS})[a-z]+(?:\s+(?!{_ONWARDS})[a-z]+)?)\b(?!\s+{_ONWARDS})"
)


# What a named thing was switched to, on it: "switched to winter tyres on the Civic", "changed to dark mode on my
# MacBook". The value is the thing's part or setting, not a new thing.
_SWITCHED_ON_IT = re.compile(
    rf"\b(?i:chang|switch|swapp)ed\s+(?i:(?:over|back)\s+)?(?i:to)\s+[^,.;!?]{{1,30}}?\s+(?i:on)\s+{_NAMED_OWNER}"
)


def done_to_a_thing_of(old: str, new: str) -> bool:
    """Whether the change ``new`` tells was done to a thing of what ``old`` names ("I had the Civic's brakes
    replaced" beside "I drive a Honda Civic", "雅阁的雨刮器换了" beside "我开一辆本田雅阁"): the thing changed,
    not the fact; so is the thing itself set to a state (``_SET_ITSELF``: "I switched Firefox to dark mode"), a part
    of it changed in place (``_A_PART_CHANGED``: "I changed my Spotify profile picture"), and what it was switched
    to on it (``_SWITCHED_ON_IT``: "switched to winter tyres on the Civic"). Not
    when it ends what was, nor when the owner is where a move goes (``_TOWARDS``)."""
    if ends_a_state(new):
        return False
    owned = itertools.chain(_OWNED_EN.finditer(new), _OWNED_ZH.finditer(new))
    if any(
        m.group(1).lower() in old.lower()
        and m.group(1) not in ("我们", "自己")
        and not _TOWARDS.search(new[: m.start()])
        for m in owned
    ):
        return True
    named = itertools.chain(
        (m.group(1) or m.group(2) for m in _SET_ITSELF.finditer(new)),
        (m.group(1) for m in _A_PART_CHANGED.finditer(new)),
        (m.group(1) for m in _SWITCHED_ON_IT.finditer(new)),
    )
    return any(name.lower() in old.lower() for name in named)


# A part of a named thing, named after it, set to a value: "I changed the VS Code font to JetBrains Mono", "我把微信
# 的字体调成大号". Not "moved" nor "switched", which may take a thing elsewhere ("I switched my Vodafone contract to
# O2", "I moved the Monzo savings to Starling").
_SETS_A_PART = re.compile(
    rf"\b(?i:changed|set|turned)\s+{_NAMED_OWNER}\s+[a-z]+(?:\s+[a-z]+)?\s+(?i:to|into)\b"
    r"|把([A-Za-z][\w .+-]*?|[\u4e00-\u9fff]{2,4}?)的[\u4e00-\u9fff]{1,4}?(?:调|设置?|改|换)(?:成|为|到)"
    rf"|\b(?i:changed|set|turned|switched)\s+(?i:the|my)\s+[a-z]+(?:\s+[a-z]+)?\s+(?i:on|of|in)\s+{_NAMED_OWNER}"
    r"\s+(?i:to|into)\b"
)


def sets_a_part_of(old: str, new: str) -> bool:
    """Whether ``new`` sets a part of what ``old`` names to a value ("I changed the VS Code font to JetBrains
    Mono", "I changed the keyboard layout on my Mac to Dvorak" beside "I use VS Code", "I use a MacBook Pro"):
    the value is the part's, never a new value of the fact."""
    return any(next(g for g in m.groups() if g).lower() in old.lower() for m in _SETS_A_PART.finditer(new))


# Where a switch goes: "switched to a new rota system", "我换了一家理发店", "换了个工位"; or what it changes, given a
# value: "switched my terminal font to Fira Code". Only a thing named by common nouns: a name may be the new value
# or what it is of ("switched to a Mac", "switched my EE contract to Three"), and so may a bare word after 换了, 换了
# 辆 or 换了部 ("换了苹果", "换了辆崔克"), so English counts only in lower case and Chinese only after the measure
# words of places, posts and everyday things.
_SWITCHED_TO = re.compile(
    r"\b(?i:switched|swapped|changed|set|turned)\s+(?:(?:my|our|the)\s+)?((?:[a-z-]+\s+){0,2}[a-z-]+)\s+(?:over\s+)?to\b"
    r"|\b(?i:switched|swapped|changed)\s+(?:over\s+)?to\s+(?:an?|the|my|our|some)\s+"
    r"((?:[a-z-]+\s+){0,3}[a-z-]+?)(?=\s+(?:for|of(?!\s+[A-Z])|to|from|on|in|at|with|near|by|down|up|round|around"
    r"|across|off|over|next|behind|opposite|instead|that|which|where|because|so|and|but|or|since|this|last|a|an|the|just|now"
    r"|today|yesterday|too|as|than|after|before|when|while)\b|\s*[,.;!?]|\s*$)"
    r"|换(?:了|成)了?一?[个家份只件双套张把种]([\u4e00-\u9fff]{2,6}?)(?=[，,。.！!了吃用喝买住]|$)"
)


# A switch kept to one use: "I switched to oat milk in my coffee", "我咖啡里改加燕麦奶了".
_SWITCHED_FOR_A_USE = re.compile(
    r"\b(?i:switched|swapped|changed)\s+(?:over\s+)?to\b[^,.;!?]*?\bin\s+(?:my|our)\s+([a-z]+)"
    r"|([\u4e00-\u9fff]{2})里(?:改|换)"
)


def switches_to_another_thing(old: str, new: str) -> bool:
    """Whether ``new`` tells a switch to a thing of another kind than ``old`` names ("I switched to a new vegan
    bakery" beside "I'm vegan", "我换了个工位" beside "我在腾讯上班", "我换了个手机套餐" beside "我的手机号是…"):
    the head of what it goes to, its last word (its last two characters in Chinese), is neither in ``old`` nor one
    of the user's own single-valued facts (``_FACT_OF_ONES_OWN``: "I switched to a vegan diet" beside "I'm
    vegetarian" is a change), so the switch is of that thing, not a new value of the fact; and so is a switch kept
    to a use ``old`` does not name ("I switched to oat milk in my coffee" beside "I'm vegan"). Not when it ends
    something ("I sold the car and switched to a cargo bike")."""
    if ends_a_state(new):
        return False
    said = old.lower()
    for m in itertools.chain(_SWITCHED_TO.finditer(new), _SWITCHED_FOR_A_USE.finditer(new)):
        thing = next(group for group in m.groups() if group)
        if _head(thing) not in said and not _FACT_OF_ONES_OWN.search(thing):
            return True
    # What is put in place of a thing that shares no word with ``old`` is that thing's new value ("组里把构建工具
    # 从webpack换成vite了" beside "我是前端工程师"; not "I swapped my Monzo account for Starling" beside "I bank with
    # Monzo").
    return any(not _shares_a_word(thing, said) and not _FACT_OF_ONES_OWN.search(thing) for thing in _replaced(new))


def _head(thing: str) -> str:
    """The head of a thing's name, its end (a compound's head comes last in English and Chinese alike): its last word
    in the singular, or its last two characters."""
    return thing.split()[-1].rstrip("s") if thing.isascii() else thing[-2:]


def _shares_a_word(thing: str, said: str) -> bool:
    """Whether the name of a thing shares a word (two characters, in Chinese) with ``said``, in lower case."""
    words = [w.rstrip("s") for w in thing.lower().split() if len(w) > 2]
    return any(w in said for w in words) or any(
        a + b in said for a, b in itertools.pairwise(thing) if not (a + b).isascii()
    )


# What is put in place of a thing, by 把 or by "replaced … with": "我把小米手机换成苹果了", "I replaced my Kindle with a
# Kobo".
_REPLACED = re.compile(
    r"把([^，,。！!？?]{2,8}?)(?:从[^，,。！!？?]{1,12}?)?(?:换成|换掉|替换成|改成)"
    r"|\b(?:replaced|swapped|traded|exchanged)\s+(?:(?:my|the|our)\s+)?((?:[\w-]+\s+){0,2}?[\w-]+)\s+(?:for|with)\b",
    re.IGNORECASE,
)


def replaces_what_it_names(old: str, new: str) -> bool:
    """Whether ``new`` puts something in place of what ``old`` names ("我把小米手机换成苹果了" beside "我用的是小米
    手机"): done to that thing, it is a new value of the fact, not a change to a thing of the user's. Told by the
    head of the thing's name, its end: "我把手机铃声换成了…" replaces a ringtone, not the phone."""
    return any(_head(thing.lower().strip()) in old.lower() for thing in _replaced(new))


def _replaced(new: str) -> list[str]:
    """The name of each thing ``new`` puts something in place of (``_REPLACED``), as said."""
    return [m.group(1) or m.group(2) for m in _REPLACED.finditer(new)]


# A thing of the user's life that changed: something new got or put in place of the old one ("I got a new bow
# for my violin", "我换了一种新的墨汁"), a thing of theirs a change was done to ("We moved the weekly standup to
# Thursdays"), or one a statement opens with ("我负责的片区换成了城东", "我家门口的地铁站换了名字"). No fact of
# the user's, unless it is one of their single-valued facts (a new job, home, partner, number …), a name or a
# number (a new value, maybe: "a new Tesla"), or shares a word with the older statement.
_THING_EN = (
    r"((?:[a-z-]+\s+){0,2}?[a-z-]+?)(?=\s+(?:for|to|from|on|in|at|with|about|of|into|over|after|by|as|and|so"
    r"|because|this|last|yesterday|today|since)\b|\s*[,.;!?]|\s*$)"
)
_NEW_THING_EN = re.compile(
    r"\b(?:got|get|bought|buy|ordered|found|fitted|installed|picked up|treated (?:myself|me) to|given|assigned)"
    r"\s+(?:a|an|some|my)?\s*"
    r"(?:brand )?new\s+" + _THING_EN,
    re.IGNORECASE,
)
_CHANGED_THING_EN = re.compile(
    rf"\b(?:{_CHANGING_EN}|reschedul|postpon)(?:ed|ing)\s+(?:(?:my|the|our|its|his|her|their)\s+)?"
    r"(?!(?:to|from|into|onto|over|back|in|out|up|down|away|on|off|around|across|abroad|here|there|again|just"
    r"|finally|recently|me|us|him|her|them|it|myself|ourselves|a|an)\b)" + _THING_EN,
    re.IGNORECASE,
)
_NEW_THING_ZH = re.compile(
    r"(?:(?:换|买|配|装)了?[^，,。新的]{0,3}新的?|新(?:买|换|配|装)了?[^，,。新的]{0,3})"
    r"((?!的)(?:[\u4e00-\u9fff]{1,6}?|[A-Za-z][A-Za-z ]*?))(?=[，,。.！!了]|$)"  # a Latin word too: "新logo"
)
_THING_CHANGED_ZH = re.compile(
    r"^\s*(?:[^，,。\s]{1,8}的|我们?家的?|家里的?)([\u4e00-\u9fffA-Za-z]{1,6}?)(?:又|也|都|刚|最近)?(?:换|改|变|调|搬)"
    # or what the household changed, named after the verb: "我们家换了宽带", "家里换了台冰箱"
    r"|^\s*(?:我们?家|家里)(?:又|也|都|刚|最近)?换了[个台家种款辆套]?([\u4e00-\u9fff]{1,4}?)(?=[，,。.！!了]|$)"
    # or a thing of ours named with no 的, from what to what: "我们项目从Maven换成Gradle了" (not "我们全家从…",
    # "我们上个月从…": who, and when)
    r"|^\s*(?:我们|咱们)(?![上下这今去前明昨刚最已终早也都又还就才在俩两几一全家])([\u4e00-\u9fff]{1,3}?)里?"
    r"(?:又|也|都|刚|最近|已经)?从[^，,。]{1,12}?(?:换|改|迁|转|切)"
    # or a place or an institution, told by the end of its name: "楼下面包店换了老板", "小区物业换了"
    r"|^\s*(?![我你他她])([\u4e00-\u9fff]{0,6}?(?:店|馆|厅|站|院|所|局|厂|园|校|中心|超市|食堂|小区|物业))"
    r"(?:又|也|都|刚|最近|已经)?(?:换|改|搬|调|挪)"
)
# Told by the head of what changed, its last word (a compound's head comes last in English and Chinese alike): "a new
# phone" is one, "a new phone case" and "车载手机支架" are not.
_FACT_OF_ONES_OWN = re.compile(
    r"\b(?:job|role|position|post|employer|company|career|home|house|flat|apartment|place|address|city|partner"
    r"|boyfriend|girlfriend|husband|wife|number|email|name|school|course|degree|major|contract|diet|car"
    r"|phone|laptop|computer)(?:e?s)?\W*$|(?:工作|单位|公司|岗位|职位|家|房|房子|住处|住址|地址|城市|对象|男朋友|女朋友|老公|老婆|号|手机号|邮箱|名字|学校|专业|车"
    r"|手机|电脑)\W*$",
    re.IGNORECASE,
)
# What goes with one of the user's things, changed ("我换了个车载手机支架", "换了个手机壳"): told by that thing
# before its head. A bare name after 换了个 may be a new value ("换了个华为"), so it is not one.
_OWN_THING_ZH = r"车|手机|电脑|房|家"
_ACCESSORY_ZH = re.compile(
    rf"换了?一?[个只件双套张把]((?:[\u4e00-\u9fff]{{0,3}}?)(?:{_OWN_THING_ZH})[\u4e00-\u9fff]{{1,4}}?)(?=[，,。.！!了]|$)"
)
_THINGS = (_NEW_THING_EN, _CHANGED_THING_EN, _NEW_THING_ZH, _ACCESSORY_ZH)


_AGAIN = re.compile(r"\bagain\b", re.IGNORECASE)  # a thing changed once more ("Slack changed its icons again")


# A thing or a person the statement opens with, then its change: "my local vegan cafe moved to a bigger place", "the
# gym I go to switched to app-only booking", "our drummer quit"; what changed is the thing or the person its head
# names, unless the change is done to the user.
_THING_CHANGED_EN = re.compile(
    r"^\s*(?:my|our|the)\s+(?:[\w'-]+\s+){0,3}?(?!(?:i|me|we|us)\b)([\w-]+)\s+"  # not "my wife and I moved"
    r"(?:(?:just|has|have|finally|recently|also)\s+)?"
    r"(?:moved|changed|switched|relocated|swapped|merged|shut|closed|quit|left|retired|resigned)\b"
    r"(?!\s+(?:me|us|my|our)\b)",  # not "switched me to …"
    re.IGNORECASE,
)


# A thing of the user's brought to a new version, which stays that thing: "my phone just updated to Android 14",
# "I updated my laptop to Windows 11", "我手机升级到 iOS 18 了". Not "I upgraded to an iPhone 16" nor "I upgraded my
# phone to an iPhone 16": what the user upgrades to may be a new thing; what a thing updates to is its version. Not
# the passive either ("my manager got upgraded to director"): people and roles are upgraded, things update.
_UPDATED = re.compile(
    r"\b(?:my|our|the)\s+(?:[\w'-]+\s+){0,2}?[\w-]+\s+(?:(?:just|has|have|finally|recently|also|automatically)\s+)?"
    r"(?<!\bgot )(?<!\bwas )(?<!\bwere )(?<!\bbeen )(?:updated|upgraded|auto-updated)\s+(?:itself\s+)?to\b"
    r"|\bI(?:'ve|\s+have)?\s+(?:just\s+|finally\s+)?updated\s+(?:my|our|the)\s+[\w' -]{1,30}?\s+to\b"
    r"|^\s*(?:我的?)?(?![我你他她又也都刚最已就还在])[\u4e00-\u9fff]{1,6}?(?:又|也|都|刚|最近|已经|自动)?(?:更新|升级)(?:到|成)"
    r"|我把[^，,。]{1,8}?(?:更新|升级)(?:到|成)",
    re.IGNORECASE,
)


def updates_a_thing(sentence: str) -> bool:
    """Whether the statement tells a thing of the user's brought to a new version (``_UPDATED``): what it names is
    that version, never a new value of a fact of the user's."""
    return bool(_UPDATED.search(sentence))


def a_things_change(clause: str) -> re.Match[str] | None:
    """The thing the clause opens with and tells the change of ("我们家换了宽带", "my gym moved"), if any."""
    return _THING_CHANGED_ZH.match(clause) or _THING_CHANGED_EN.match(clause)


def changes_another_thing(old: str, new: str) -> bool:
    """Whether the change ``new`` tells is of a thing ``old`` does not name and that is no fact of the user's
    own ("I bought new running shoes" beside "I run every morning", "We moved the weekly standup to
    Thursdays" beside "I work from home", "我们小区换了新物业" beside "我住在西安"): an event within the user's
    life, not a new value of ``old``, whatever it names. Not when it ends something, nor when it says what
    holds now ("I got a new e-bike and ride to work now" beside "I commute by train"), unless what changed opens the
    statement: then the ending and the "now" are its own ("our drummer quit, so we're auditioning")."""
    # A thing the statement opens with is what changed; what it names after, and its "now", are that thing's
    # ("我家门口的地铁站换了新名字": the station's name, not the user's).
    opening = a_things_change(new)
    # What holds now of the user, not of someone else ("Priya and I swapped sides of the bed, she snores less now").
    now = any(holds_now(_AGAIN.sub(" ", c)) for c in clauses(new) or [new] if not about_someone_else(c))
    if not opening and (ends_a_state(new) or now):
        return False
    things = (
        [next(g for g in opening.groups() if g)]
        if opening
        else [m.group(1) for pattern in _THINGS for m in pattern.finditer(new)]
    )
    said = old.lower()
    for thing in things:
        shared = _shares_a_word(thing, said)
        named = not opening and any(c.isupper() or c.isdigit() for c in thing)  # a new value, maybe
        if shared or _FACT_OF_ONES_OWN.search(thing) or named:
            return False
    return bool(things)


# The teams and departments inside an organisation (a doctor's rotations, a hospital's 病区): moving between them
# is a change within where one works.
_UNIT = re.compile(
    r"\b(?:team|department|dept|division|squad|unit|rotation)s?\b|团队|部门|(?<=[\u4e00-\u9fff])组(?!织|合|装|建|成)"
    r"|事业部|事业群|科室|病区|轮转",
    re.IGNORECASE,
)


def moves_within(old: str, new: str) -> bool:
    """Whether ``new`` tells a move between the teams or departments of one organisation and ``old`` names
    none ("I switched from the payments team to checkout" beside "I'm a developer at Shopify",
    "我从微信团队调到了游戏部门" beside "我在腾讯做产品经理"): the employer stays. Not when it ends what was
    ("I left Google and joined Meta's AI team")."""
    return bool(_UNIT.search(new)) and not _UNIT.search(old) and not ends_a_state(new)


def event_beside_state(old: str, new: str) -> bool:
    """Whether ``new`` tells of a change and ``old`` states how things are ("I quit smoking" beside "I
    smoke"): never the same fact said again, however near their words. A change denied is none ("I can't quit
    smoking")."""
    return tells_a_change(new) and not denies_a_change(new) and not tells_a_change(old)


def denies(sentence: str) -> bool:
    """Whether the statement denies something ("I don't …", "never", "我不…", "没有…")."""
    return bool(_DENIAL.search(sentence))


_TAKEN_UP_AGAIN = re.compile(r"\bagain\b|\bback on\b|又|重新|复[吸抽喝]", re.IGNORECASE)


def agrees_in_ending(old: str, new: str) -> bool:
    """Whether ``new``, beginning nothing, denies or ends beside an ``old`` that ended something ("eight months
    smoke-free now" beside "I quit smoking last year", "我已经一年没抽烟了" beside "我戒烟了"), or abstains for a
    span beside an ``old`` that denies ("two months without a night out" beside "I don't drink"): what ended
    stays ended, what was denied stays denied."""
    if _BEGINNING.search(new) or _TAKEN_UP_AGAIN.search(new):
        return False
    if ends_a_state(old):
        return denies(new) or ends_a_state(new)
    return denies(old) and bool(_ABSTAINING.search(new))


def denies_another_thing(old: str, new: str) -> bool:
    """Whether each denial of ``new`` is of what ``old`` does not name, and ``new`` tells no change of state
    ("我三个星期没休息了，太累了" beside "我是老师", "I haven't had a holiday in ages" beside "I'm a nurse"): what
    it denies is another thing. A denial in ``old``'s words ("我不当老师了") is ``what_a_denial_adds``'s."""
    if denies(old) or ends_a_state(old) or tells_a_change(new) or _CHANGED_SINCE_IN_WORDS.search(new):
        return False  # "我们已经不在一起了", "not a single cigarette since March": the words of a change since
    said = _stems(old)
    denials = [c for c in _CLAUSE.split(new) if denies(c)]
    return bool(denials) and not any(_stems(c) & said for c in denials)


def denies_without_change(old: str, new: str) -> bool:
    """Whether ``new`` denies something and says nothing has changed, beside an ``old`` that denies nothing
    ("I don't eat meat or fish" beside "I'm a vegetarian"): a denial names no new value, so it is the same
    fact said the other way round or a contradiction, never a change of it. "I don't run anymore" and
    "我不跑步了" tell a change."""
    return denies(new) and not denies(old) and not says_it_changed(new)


# What a statement tells as done or become, by its form: the perfect in English (what holds since: "I've gone
# part-time"), the 了 or 过 of a completed action in Chinese. The simple past alone tells an event of a life, and
# what it changes is told by a word of a change ("moved", "quit", "got married"): "I passed my grade 5 piano exam"
# beside "I'm learning the piano" is none. The irregular participles are a closed class; "-ed" carries most.
_DONE = re.compile(
    r"(?:'ve|\b(?:have|has))\s+(?:\w+ly\s+|just\s+|now\s+|already\s+)?(?:\w{2,}ed|been|gone|got|gotten|become|taken"
    r"|begun|left|quit|made|found|met|bought|sold|lost|given|come|broken|split|fallen|won|paid|built|sent|spent|kept"
    rf"|let|done|had)\b|{_LE}|过",
    re.IGNORECASE,
)


# One time gone by, named ("last week", "yesterday", "上个月"): what was done then is an episode of it.
_ONE_PAST_TIME = re.compile(
    rf"\b(?:yesterday|last (?:night|week|weekend|month|year|time|{_WEEKDAY}|summer"
    r"|winter|spring|autumn|fall)|the other day"
    r"|(?:a|one|two|three|four|five|six|a few|a couple of|\d+) (?:days?|weeks?) ago)\b"
    r"|昨天|昨晚|前天|上周|上星期|上礼拜|上个?月|前几天|前两天|那天",
    re.IGNORECASE,
)


# A task done or an amount of an event, in Chinese: a verb's result ("学会换气了", "打完疫苗了", "科目一过了",
# "开题报告通过了"), how much ("瘦了三斤", "存了五千块", a trip: "回了趟老家") or which of a series ("第一轮实习结束了",
# "第一次上路练车了"), or done for a moment ("我和小雯换了下睡的位置": 换了下 is no change of state either). Its 了
# completes the event, not a new state of a fact.
_AN_EVENT_DONE_ZH = re.compile(
    r"(?<![我你他她它们])(?:完|会|懂|通过|过)[^，,。！!？?]{0,6}了"
    rf"|了{_A_COUNT_ZH}[个块斤公斤公里次遍本天周年杯份桌顿场页章]|了一?趟|了一?下(?![来去午周个次班面])"
    r"|第(?:[一二两三四五六七八九十]|\d)+(?:次|轮|阶段|期|场|节|回)"
)


# One day named, as a day of an event gone by ("on Tuesday", "at the weekend", "周日", "星期六"; not "on Mondays", a
# routine), with a verb in the past: "I had an interview at PwC on Tuesday", "周日试驾了一下宝马i4".
_ONE_DAY = re.compile(
    rf"\b(?:on (?:the )?{_WEEKDAY}|(?:at|over) the weekend)\b(?!s)"
    r"|(?<![下这])(?:周|星期|礼拜)[一二三四五六日天末](?!都|每)",
    re.IGNORECASE,
)
_A_PAST_VERB = re.compile(rf"\b{_PAST_VERB}|了|过", re.IGNORECASE)


def an_episode(sentence: str) -> bool:
    """Whether the statement tells an episode of a life: something done at one time gone by ("last week",
    "yesterday", "on Tuesday" with a verb in the past) that no word of a change or of what holds now goes with ("I
    had an interview at PwC on Tuesday", "周日试驾了一下宝马i4"). What it names is the episode's, no new value of a
    standing fact."""
    if says_it_changed(sentence) or _NOW_WORD.search(sentence):
        return False
    return bool(_ONE_PAST_TIME.search(sentence) or (_ONE_DAY.search(sentence) and _A_PAST_VERB.search(sentence)))


# Where a trip is going ("on my way to Glasgow", "en route to Oslo", "去杭州的路上"): a place passed through, not a
# value of any fact of the user's.
_ON_THE_WAY = re.compile(
    r"\b(?:on (?:my|our|the) way (?:to|back to)|en route to|heading (?:to|for)|bound for)\s+"
    r"((?-i:[A-Z])[\w-]*(?:\s+(?-i:[A-Z])[\w-]*)*)|[去回]([A-Za-z][\w-]*)的路上",
    re.IGNORECASE,
)


def destinations(sentence: str) -> set[str]:
    """The places a trip in the statement is going to ("I'm changing trains at Crewe on my way to Glasgow")."""
    return {m.group(1) or m.group(2) for m in _ON_THE_WAY.finditer(sentence)}


# A move to where the user is ("I moved here from Leeds", "came over here", "我是三年前从南京搬过来的"), and where
# a move or a switch came from ("from Leeds").
_MOVED_HERE = re.compile(
    r"\b(?:moved|came|relocated)\s+(?:(?:over|up|down|back|out)\s+)?here\b|搬(?:过来|来这|到这)|来到这",
    re.IGNORECASE,
)
_FROM = re.compile(r"\bfrom\s+((?-i:[A-Z])[\w-]*(?:\s+(?-i:[A-Z])[\w-]*)*)", re.IGNORECASE)


def moved_here(sentence: str) -> bool:
    """Whether the statement tells how the user came to where they are ("I moved here from Leeds about six years
    ago", "我是三年前从南京搬过来的"): where they live, said again with how they came, no new place."""
    return bool(_MOVED_HERE.search(sentence))


def origins(sentence: str) -> set[str]:
    """The names a move or a switch in the statement came from ("Leeds" of "I moved to York from Leeds"): where the
    user was, never a new value."""
    return set(_FROM.findall(sentence))


def says_again_as_it_holds_still(old: str, new: str) -> bool:
    """Whether ``new`` says that what ``old`` states holds still, in no words but ``old``'s own beside the word of
    continuity ("still in Bristol, still loving it" beside "I live in Bristol", "我还在厦门，挺好的" beside "我住在
    厦门"), and tells no change nor anything against it (``goes_on``)."""
    if not goes_on(new):
        return False
    said = _stems(old)
    return any(
        (words := _stems(_GOES_ON.sub(" ", part))) and words <= said
        for part in [new, *clauses(new)]
        if _GOES_ON.search(part)
    )


def says_again_as_it_stays_ended(old: str, new: str) -> bool:
    """Whether ``new`` denies or ends what ``old`` ended, in a clause that shares ``old``'s words ("I don't drink, so
    suggest some mocktails" beside "I stopped drinking two years ago", "我不喝酒" beside "我两年前戒酒了"): it stays
    ended, said again (``agrees_in_ending``). Not by the words of since when ("I haven't dated anyone since the
    divorce" beside "I'm divorced" denies another thing)."""
    if not (ends_a_state(old) and agrees_in_ending(old, new)):
        return False
    said = _stems(old)
    return any(
        (denies(part) or ends_a_state(part)) and _stems(_HELD_FOR.sub(" ", part)) & said
        for part in [new, *clauses(new)]
    )


def may_tell_a_change(old: str, new: str) -> bool:
    """Whether the words of ``new`` could tell a change of ``old`` at all, apart from any value it names: the
    aspect of a change ("now", "anymore", "moved", 现在), an ending of what ``old`` names ("我跟晓婷分了"),
    something done or become ("I've gone part-time", "我们年初搬回了温州"), or the other way round from ``old`` (one of
    the two denies). "I'm on nights this month" beside "I'm a nurse" tells none: whatever the vectors read, it is
    no change. Nor does something done at one time gone by that no word of a change goes with ("I had my annual
    diabetes review last week", "我上个月去医院复查了" beside a diabetes): an episode of a life, not a new state; nor a
    Chinese task done or an amount of an event (``_AN_EVENT_DONE_ZH``: "我终于学会换气了" beside "我在学游泳")."""
    if says_it_changed(new) or ends_what_it_names(old, new) or denies(old) != denies(new):
        return True
    if _NOW_WORD.search(new):
        return True
    # Its 了 and its past are of that time, or of that task.
    episode = an_episode(new) or of_the_moment(new) or _AN_EVENT_DONE_ZH.search(new)
    return not episode and bool(_DONE.search(_NO_NEW_SITUATION_ZH.sub("", new)))  # not "太累了": a degree exclaimed


def only_takes_up(old: str, new: str) -> bool:
    """Whether ``new`` tells only that the user took something up, with nothing saying it replaces ``old``:
    no ending nor other change of state, no "now" or "again", and ``old`` not turned around ("最近我开始能吃辣了"
    beside "我不吃辣" turns it)."""
    return (
        bool(_BEGINNING.search(new))
        and not tells_a_change(_BEGINNING.sub(" ", new))
        and not holds_now(new)
        and denies(old) == denies(new)
    )


def turns_around(old: str, new: str) -> bool:
    """Whether ``new`` says that what ``old`` denies or states now holds the other way ("我现在也吃牛肉了"
    beside "我不吃牛肉", "我不在杭州了" beside "我在杭州工作"): never the same fact again, and a change though
    it adds in form ("也", "too"). Clause by clause where either joins several, of the clauses that share what
    they are about: "No more meat for me" turns "I eat meat and fish, no restrictions" around. A denial of what
    ended agrees with it ("我已经一年没抽烟了" beside "我戒烟了", ``agrees_in_ending``)."""
    return any(
        denies(said) != denies(says)
        and holds_now(says)
        and not agrees_in_ending(said, says)
        and ((said, says) == (old, new) or bool(_content(said) & _content(says)))
        for said in [old, *clauses(old)]
        for says in [new, *clauses(new)]
    )


_PRESENT = re.compile(rf"\b(?:{_PRESENT_EN}|nowadays)\b|{_PRESENT_ZH}", re.IGNORECASE)


def says_what_holds_now(sentence: str) -> bool:
    """Whether the statement names the present as when what it tells holds ("I'm driving a Kia Picanto now",
    "我现在给一个老板开车了"): a new value of a fact may come so, with no word of a change. Not "again" nor "重新",
    which may tell a thing done once more ("我们家重新装修了厨房")."""
    return bool(_PRESENT.search(sentence))


def holds_now(sentence: str) -> bool:
    """Whether the statement says what it tells holds now ("now", "these days", "again", 已经, the 了 of a new
    situation)."""
    return bool(_NOW_HOLDS.search(_NO_NEW_SITUATION_ZH.sub("", sentence)))


# The words of a statement that carry what it is about, apart from who, the aspect and the denial.
_FUNCTION_ZH = re.compile(r"[我你他她们的了也都还不没别很就才会能要在现已经再又偶尔点儿吗呢吧啊]")
_FUNCTION_EN = {"don't", "doesn't", "not", "never", "now", "again", "any", "more", "anymore", "these", "days", "i'm"}


def _content(sentence: str) -> set[str]:
    words = {w for w in re.findall(r"[a-z']{3,}", sentence.lower()) if w not in _FUNCTION_EN}
    chars = _FUNCTION_ZH.sub("", "".join(re.findall(r"[\u4e00-\u9fff]", sentence)))
    return words | {a + b for a, b in itertools.pairwise(chars)}


def a_role_it_names(memory: str, role: str) -> bool:
    """Whether ``memory`` names the role (``as_a_role``) in a word of its own ("I work as a nurse in A&E" of "I'm
    an emergency nurse"): the vectors of two short statements of who one is read any two roles as one ("我是家长"
    beside "我是中学老师")."""
    phrase = role.removeprefix("I'm ").removeprefix("我是")
    return bool(_content(phrase) & _content(memory))


def takes_back_a_denial(old: str, new: str) -> bool:
    """Whether ``new`` says that what ``old`` denied holds now, in ``old``'s own words ("我现在也吃猪肉了" beside
    "我不吃猪肉", "I drink coffee again" beside "I don't drink coffee"): a change however alike the two read.
    Not "I'm vegetarian now" beside "I don't eat meat", the same fact told another way."""
    return denies(old) and not denies(new) and holds_now(new) and bool(_content(old) & _content(new))


# What a denial denies is its clause without the user as its subject ("我和晓雯已经不在一起了" denies being
# together), or in English, lacking the user as subject, what follows the denial ("That number doesn't work
# anymore").
_USER_SUBJECT = re.compile(
    r"\b(?:i|i'm|i've|we|we're|we've)(?![\w'])|我们?(?:[和跟与同][^\s，,。不没]{1,4}?(?=[\u3400-\u9fff]{0,2}[不没]))?",
    re.IGNORECASE,
)
# What comes before the subject and is not what is denied: why or since when ("膝盖受伤以后我就…", "Since the
# surgery I …"), or who besides ("Hannah and I …"). A time or a condition is ("下雨天我不骑了": only then).
_WHY_OR_WHO = re.compile(r"以后|之后|以来|自从|因为|由于|\b(?:since|after|because)\b|\b(?:and|&)\s*$", re.IGNORECASE)
_DENIAL_EN = re.compile(r"\w+n't\b|\b(?:not|never|no)\b(?!-(?!one\b))", re.IGNORECASE)
# The words of a denial that name nothing: the denial and its aspect, the verbs that carry it, pronouns and
# prepositions ("I don't work there anymore", "我已经不在那家公司了").
_FRAME_EN = {
    *_FUNCTION_EN,
    *"isn't aren't wasn't won't can't didn't haven't hasn't i've we're we've longer am are is was were be been being"
    " do does did doing done have has had get got the a an my our your it its this that these those there here"
    " them all just really at in on to of for from with by after before about into over out"
    " strictly fully completely totally entirely exactly quite very much always even".split(),
}
_FRAME_ZH = re.compile(rf"{_FUNCTION_ZH.pattern}|[那这个么用]")
_CJK = re.compile(r"[\u3400-\u9fff]")
# When, in Chinese: a closed class of words, told whole, for one of their characters may be in the fact
# ("晚上" beside "上班": "我晚上不开车了" only narrows "我开车上班").
_WHEN_ZH = re.compile(
    r"早上|晚上|中午|上午|下午|傍晚|夜里|夜间|半夜|白天|周末|工作日|节假日|假期|平时|雨天|雪天"
    r"|(?:周|星期|礼拜)[一二三四五六日天]|[春夏秋冬]天"
)
# The aspect of a state changed since, which tells a change only with the denial it goes with.
_DENIAL_ASPECT = re.compile(r"\b(?:any ?more|no longer)\b|不再", re.IGNORECASE)


class DenialAdds(NamedTuple):
    """The words a denial adds to those of the fact it denies: before them, another verb for the same thing
    ("drinks" of "The user no longer drinks tea" beside "The user prefers tea"); after them, or anywhere in
    Chinese, a circumstance of it ("weekends" of "I don't work weekends anymore" beside "I work at Tesco",
    "周末" of "我周末不喝豆浆了" beside "我每天早上喝豆浆")."""

    renaming: frozenset[str]
    narrowing: frozenset[str]


def what_a_denial_adds(old: str, new: str) -> DenialAdds | None:
    """What ``new``'s denial of ``old``, in ``old``'s own words and with the aspect of a change ("anymore",
    "no longer", "现在", the 了 of a new situation), names beyond them: nothing when it denies ``old`` itself
    ("I'm not a member of the Green Party anymore", "我现在不坐地铁了" beside "我每天坐地铁上班"). None when ``new``
    is no such denial: ``old`` denies or ends something itself, no clause of the user's in ``new`` denies in
    ``old``'s words with that aspect ("护士这行不好干" beside "我是一名护士" tells no change), or another of them
    tells a change of its own ("我现在开始吃鱼了，不算全素了")."""
    if denies(old) or ends_a_state(old):
        return None
    own = [c for c in _CLAUSE.split(new) if c.strip() and not about_someone_else(without_opener(c.strip()))]
    if any(tells_a_change(_DENIAL_ASPECT.sub(" ", c)) for c in own):
        return None
    said = _stems(old)
    denials = [c for c in own if denies(c) and _CHANGED_SINCE.search(c) and _stems(c) & said]
    if not denials:
        return None
    renaming: set[str] = set()
    narrowing: set[str] = set()
    for denial in denials:
        denied = _HOW_LONG.sub(" ", _what_is_denied(denial))
        if not _stems(denied) & said:
            continue  # it denies who or what its subject is ("Hannah and I aren't together anymore")
        words = _english_stems(denied)
        first = next((i for i, w in enumerate(words) if w in said), len(words))
        renaming |= {w for w in words[:first] if w not in said}
        narrowing |= {w for w in words[first:] if w not in said}
        unsaid = (c if c not in said and _CJK.match(c) and not _FRAME_ZH.match(c) else " " for c in denied)
        narrowing |= {run for run in "".join(unsaid).split() if len(run) > 1}
        narrowing |= {when for when in _WHEN_ZH.findall(denied) if when not in old}
    return DenialAdds(frozenset(renaming), frozenset(narrowing))


def _what_is_denied(clause: str) -> str:
    if subject := _USER_SUBJECT.search(clause):
        before, after = clause[: subject.start()], clause[subject.end() :]
        return after if _WHY_OR_WHO.search(before) else f"{before} {after}"
    denial = _DENIAL_EN.search(clause)
    return clause[denial.start() :] if denial else clause


def _english_stems(sentence: str) -> list[str]:
    """The English words of a statement that name something, in order, without their endings ("drives",
    "driving" → "driv"), and its numbers."""
    words = re.findall(r"[a-z']+|\d+", sentence.lower())
    return [
        w if w.isdigit() else re.sub(r"(?:ing|ed|es|s|e)$", "", w) or w
        for w in words
        if w.isdigit() or (w not in _FRAME_EN and len(w) > 2)
    ]


def _stems(sentence: str) -> set[str]:
    """``_english_stems`` and the Chinese characters that name something."""
    return set(_english_stems(sentence)) | set(_FRAME_ZH.sub("", "".join(_CJK.findall(sentence))))


# Since when or how long a state has held: "since 2015", "since last March", "2019年以来", "for 15 years", "十年".
_HELD_FOR = re.compile(
    rf"\bsince\s+(?:(?:the start of|the|early|late|mid-?|last)\s+)?\S+|\S+?年?以来|{_HOW_LONG.pattern}", re.IGNORECASE
)


def how_long_held(sentence: str) -> list[str]:
    """The words of each time the statement says a state has held since, or of how long it has held ("2015" of
    "since 2015", "15" of "for 15 years")."""
    return [w for found in _HELD_FOR.findall(sentence) for w in re.findall(r"\d+|[^\W\d_]+", found)]


def held_since(old: str, new: str) -> bool:
    """Whether ``new`` says that what ``old`` states has held since some time or for some time, in no words but
    ``old``'s own ("I've been vegetarian since 2015", "I've been a nurse for 15 years" beside "I'm a nurse"): it
    held then, and holds still. Not a state ``old`` does not name ("I've been working nights since March" beside
    "I work days"), nor a denial ("I haven't smoked since March"), nor a change told ("I've been living in Porto
    since I moved")."""
    if not _HELD_FOR.search(new) or denies(new) or denies(old) or tells_a_change(new):
        return False
    said = _stems(_HELD_FOR.sub(" ", new))
    return bool(said) and said <= _stems(old)


def says_it_changed(sentence: str) -> bool:
    """Whether the statement tells a change of state, or denies with the aspect of a state changed since
    ("I'm not at Spotify anymore", "我已经不在腾讯了")."""
    return tells_a_change(sentence) or (denies(sentence) and bool(_CHANGED_SINCE.search(sentence)))
